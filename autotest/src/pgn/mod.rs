//! PGN files: the games written (`write`), read back (`read`, for
//! `-resume` and `autotest stats --pgn`), and one player's results
//! gathered from them (`player_results`).

pub mod player_results;
pub mod read;
pub mod write;

//! PGN files: the games written (`write`), read back (`read`, for
//! `-resume` and `autotest stats --pgn`), one player's results
//! gathered from them (`player_results`) and each side's figures a move
//! (`move_figures`).

pub mod move_figures;
pub mod player_results;
pub mod read;
pub mod write;

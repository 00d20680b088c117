//! PGN files: the games written (`write`), read back (`read`, for
//! `-resume` and `autotest stats --pgn`), one player's results
//! gathered from them (`player_results`), each side's figures a move
//! (`move_figures`), and the clocks of a game played at a node's measured
//! speed (`time_control`).

pub mod move_figures;
pub mod player_results;
pub mod read;
pub mod time_control;
pub mod write;

//! The games the server keeps: at most a fixed number, the oldest evicted
//! (its search cancelled) when a new one would exceed it, so that a page
//! reloaded in a loop can not exhaust memory. For the same reason only the
//! games searched last keep their searches' memory (an MCTS tree may take
//! hundreds of MB).
//!
//! The GUI is its own referee: the game ends at the rules' first verdict,
//! a zapped King or a draw (RULES.md's three-fold repetition and 100-ply
//! no-zap rule), as autotest's referee ends its games.

use super::think::{Control, EngineMove, GameMemory};
use crate::play::pgn::{self, MoveRecord, Standard};
use crate::rules::board::Board;
use crate::rules::fen::{self, FenError};
use crate::rules::game::{Game, MoveError, Outcome};
use crate::rules::moves::Move;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// The games by id; ids count up from 1 and are never reused.
pub struct Store {
    games: BTreeMap<u64, Entry>,
    last_id: u64,
    max: usize,
    /// How many of the games searched last keep their memory.
    remembered: usize,
    /// Counts the searches ended, to order the games by their last one.
    searches: u64,
}

impl Store {
    /// At most `max` games, the last `remembered` searched keeping their
    /// searches' memory.
    pub fn new(max: usize, remembered: usize) -> Store {
        Store {
            games: BTreeMap::new(),
            last_id: 0,
            max: max.max(1),
            remembered,
            searches: 0,
        }
    }

    /// Game `id`'s search has ended, leaving its memory: the games not
    /// among the `remembered` searched last forget theirs (a game searching
    /// again now forgets when that search ends and another's does).
    pub fn searched(&mut self, id: u64) {
        self.searches += 1;
        if let Some(e) = self.games.get_mut(&id) {
            e.last_search = self.searches;
        }
        let mut by_last: Vec<&mut Entry> = self
            .games
            .values_mut()
            .filter(|e| e.last_search > 0)
            .collect();
        by_last.sort_by_key(|e| std::cmp::Reverse(e.last_search));
        for e in by_last.into_iter().skip(self.remembered) {
            if e.memory.forget() {
                e.last_search = 0;
            }
        }
    }

    /// Keeps `entry` under a new id, evicting the oldest games beyond the
    /// limit.
    pub fn insert(&mut self, entry: Entry) -> u64 {
        while self.games.len() >= self.max {
            if let Some((_, mut old)) = self.games.pop_first() {
                old.cancel_search();
            }
        }
        self.last_id += 1;
        self.games.insert(self.last_id, entry);
        self.last_id
    }

    pub fn get(&self, id: u64) -> Option<&Entry> {
        self.games.get(&id)
    }

    pub fn get_mut(&mut self, id: u64) -> Option<&mut Entry> {
        self.games.get_mut(&id)
    }
}

/// The players' names, for the PGN.
#[derive(Clone, Debug)]
pub struct Players {
    pub white: String,
    pub black: String,
}

/// One game: the rules' `Game`, what the PGN needs, and its search.
pub struct Entry {
    pub game: Game,
    /// The position it started from.
    start: Board,
    pub records: Vec<MoveRecord>,
    pub players: Players,
    started_unix: u64,
    /// When the last move was played: a human's thinking time runs from it.
    last_move_at: Instant,
    /// Counts every change, so that a search answers only the position it
    /// searched.
    pub version: u64,
    pub search: Option<Arc<Control>>,
    /// What its searches keep from one to the next.
    pub memory: GameMemory,
    /// When its last search ended, in `Store::searches`; 0: it keeps no
    /// memory.
    last_search: u64,
}

impl Entry {
    pub fn new(start: &str, players: Players) -> Result<Entry, FenError> {
        let board = fen::parse(start)?;
        Ok(Entry {
            game: Game::new(board.clone()),
            start: board,
            records: Vec::new(),
            players,
            started_unix: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs()),
            last_move_at: Instant::now(),
            version: 0,
            search: None,
            memory: GameMemory::default(),
            last_search: 0,
        })
    }

    /// The rules' verdict that ended the game, if any.
    pub fn outcome(&self) -> Option<Outcome> {
        self.game.outcome()
    }

    /// Plays `m` if the rules allow it and the game goes on: the engine's
    /// move with what its search says, a human's (`None`) with the time
    /// since the last move.
    pub fn play(&mut self, m: Move, engine: Option<EngineMove>) -> Result<(), MoveError> {
        if let Some(o) = self.outcome() {
            return Err(MoveError::GameOver(o));
        }
        self.game.play(m)?;
        let (time, depth, nodes) = match engine {
            Some(e) => (e.time, e.depth, Some(e.nodes)),
            None => (self.last_move_at.elapsed(), None, None),
        };
        self.records.push(MoveRecord {
            text: m.to_string(),
            time_ns: time.as_nanos() as u64,
            depth,
            nodes,
            score: None,
        });
        self.last_move_at = Instant::now();
        self.version += 1;
        Ok(())
    }

    /// Takes back the last `plies` moves (all there are, if fewer) by
    /// replaying the others from the start.
    pub fn undo(&mut self, plies: usize) -> Result<(), MoveError> {
        let keep = self.records.len().saturating_sub(plies);
        let mut game = Game::new(self.start.clone());
        for &m in &self.game.moves()[..keep] {
            game.play(m)?;
        }
        self.game = game;
        self.records.truncate(keep);
        self.last_move_at = Instant::now();
        self.version += 1;
        Ok(())
    }

    /// Stops the running search, if any, so that it plays nothing.
    pub fn cancel_search(&mut self) {
        if let Some(c) = self.search.take() {
            c.cancel();
        }
    }

    /// The game in autotest's Standard PGN style.
    pub fn pgn(&self, id: u64) -> String {
        let (result, tag, termination) = match self.outcome() {
            Some(o) => (o.score_text(), "normal", o.reason()),
            None => ("*", "unterminated", "game in progress"),
        };
        let start = fen::to_fen(&self.start);
        let start = (start != fen::STARTPOS).then_some(start.as_str());
        pgn::standard(&Standard {
            event: "leiserchess gui",
            round: &id.to_string(),
            white: &self.players.white,
            black: &self.players.black,
            fen: start,
            opening: &[],
            moves: &self.records,
            result,
            termination_tag: tag,
            termination,
            started_unix: self.started_unix,
            extra: &[],
        })
    }
}

//! The move-ordering tables' `check_rep` invariants and the `dump killers`
//! and `dump history` texts.

use super::{Order, HISTORY_SIZE, MAX_PLY};
use crate::check_rep::{ensure, CheckRep};
use crate::rules::moves::Move;

impl Order {
    /// The killers of one ply: distinct, and a second only with a first.
    pub fn check_ply(&self, ply: usize) -> Result<(), String> {
        ensure(ply < MAX_PLY, || {
            format!("killers of ply {ply} >= {MAX_PLY}")
        })?;
        let [a, b] = self.killers[ply];
        let text = |m: Option<Move>| m.map_or("none".to_string(), |m| m.to_string());
        ensure(a.is_none() || a != b, || {
            format!("killers at ply {ply} are both {}", text(a))
        })?;
        ensure(a.is_some() || b.is_none(), || {
            format!("killers at ply {ply}: second {} without a first", text(b))
        })
    }

    /// The move of history slot `i` (without its side), if the slot is
    /// one a move can use.
    fn slot_move(i: usize) -> Option<Move> {
        Move::from_bits(0x8000 | (i & (HISTORY_SIZE - 1)) as u16)
    }

    #[cfg(feature = "debug-commands")]
    pub fn dump_killers(&self) -> String {
        let mut t = String::new();
        for (ply, k) in self.killers.iter().enumerate() {
            if k[0].is_some() {
                let moves: Vec<String> = k.iter().flatten().map(|m| m.to_string()).collect();
                t.push_str(&format!("ply {ply:>3}: {}\n", moves.join(" ")));
            }
        }
        if t.is_empty() {
            t.push_str("no killers\n");
        }
        let n = self.killers.iter().filter(|k| k[0].is_some()).count();
        t.insert_str(0, &format!("killers at {n} of {MAX_PLY} plies\n"));
        t
    }

    /// The `top` largest history counters with their side and move.
    #[cfg(feature = "debug-commands")]
    pub fn dump_history(&self, top: usize) -> String {
        use crate::rules::piece::Color;
        let mut used: Vec<(u32, usize)> = self
            .history
            .iter()
            .enumerate()
            .filter(|(_, &h)| h > 0)
            .map(|(i, &h)| (h, i))
            .collect();
        used.sort_by_key(|&(h, i)| (std::cmp::Reverse(h), i));
        let mut t = format!(
            "history: {} non-zero counters, the largest {}:\n",
            used.len(),
            top.min(used.len())
        );
        for &(h, i) in used.iter().take(top) {
            let side = if i < HISTORY_SIZE {
                Color::White
            } else {
                Color::Black
            };
            let mv = Order::slot_move(i).map_or("?".to_string(), |m| m.to_string());
            t.push_str(&format!("{:<7} {side:?} {h}\n", mv));
        }
        t
    }
}

impl CheckRep for Order {
    const NAME: &'static str = "order";

    /// Every ply's killers (`check_ply`); the history table's size; every
    /// counter at most `HISTORY_MAX`, and zero where no move can count.
    fn check_rep(&self) -> Result<(), String> {
        (0..MAX_PLY).try_for_each(|ply| self.check_ply(ply))?;
        ensure(self.history.len() == 2 * HISTORY_SIZE, || {
            format!(
                "history has {} counters, not {}",
                self.history.len(),
                2 * HISTORY_SIZE
            )
        })?;
        self.history.iter().enumerate().try_for_each(|(i, &h)| {
            ensure(h <= Order::HISTORY_MAX, || {
                format!("history counter {i} is {h}, above {}", Order::HISTORY_MAX)
            })?;
            ensure(h == 0 || Order::slot_move(i).is_some(), || {
                format!("history counter {i} is {h}, but no move uses that slot")
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::slot;
    use super::*;
    use crate::rules::piece::{Color, Rot};
    use crate::rules::square::Square;

    fn mv(i: u8) -> Move {
        Move::rotate(Square::new(i), Rot::R)
    }

    fn recorded() -> Order {
        let mut o = Order::default();
        for i in 0..40 {
            o.cutoff(Color::Black, mv(i % 7), (i % 5) as usize, 30);
        }
        o
    }

    #[test]
    fn recorded_cutoffs_are_well_formed() {
        assert_eq!(recorded().check_rep(), Ok(()));
        // Enough cut-offs to halve the counters keep them in range.
        let mut o = Order::default();
        for i in 0..20_000 {
            o.cutoff(Color::White, mv((i % 3) as u8), 0, 127);
        }
        assert_eq!(o.check_rep(), Ok(()));
    }

    #[cfg(feature = "debug-commands")]
    #[test]
    fn the_dumps_show_counters_and_killers() {
        let o = recorded();
        let d = o.dump_history(3);
        assert!(
            d.starts_with("history: 7 non-zero counters, the largest 3:\n"),
            "{d}"
        );
        assert!(d.lines().nth(1).unwrap().contains("Black"), "{d}");
        assert!(
            o.dump_killers().contains("ply   0: a0R c0R"),
            "{}",
            o.dump_killers()
        );
    }

    #[test]
    fn each_broken_table_is_caught_with_its_message() {
        let mut o = Order::default();
        o.killers[3] = [Some(mv(1)), Some(mv(1))];
        assert_eq!(o.check_rep().unwrap_err(), "killers at ply 3 are both b0R");
        o.killers[3] = [None, Some(mv(1))];
        assert_eq!(
            o.check_rep().unwrap_err(),
            "killers at ply 3: second b0R without a first"
        );
        assert_eq!(
            o.check_ply(MAX_PLY).unwrap_err(),
            "killers of ply 128 >= 128"
        );

        let mut o = Order::default();
        o.history[slot(Color::White, mv(2))] = Order::HISTORY_MAX + 1;
        assert!(o
            .check_rep()
            .unwrap_err()
            .ends_with("is 16777217, above 16777216"));
        let mut o = Order::default();
        o.history[0x4000] = 1;
        assert_eq!(
            o.check_rep().unwrap_err(),
            "history counter 16384 is 1, but no move uses that slot"
        );
        let mut o = Order::default();
        o.history.pop();
        assert_eq!(
            o.check_rep().unwrap_err(),
            "history has 32767 counters, not 32768"
        );
    }
}

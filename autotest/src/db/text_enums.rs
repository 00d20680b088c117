//! The words the results database stores for a run's kind, a run's
//! status, a benchmark's measure, a store artifact's kind, status and
//! parent's role, and a loop's step, verdict and decision, each declared
//! once as an enum: its
//! text, the list of all its values (which the schema's CHECKs spell, a
//! test says so), parsing, and SQLite's conversions, so that rows bind
//! and read them typed and no SQL spells one as a literal.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use std::fmt;

/// An enum stored as one of a fixed set of words.
pub trait TextEnum: Copy + PartialEq + 'static {
    /// What a value is, in errors: `kind`, `status`, `measure`.
    const WHAT: &'static str;
    /// Every value, in the schema's order.
    const ALL: &'static [Self];

    /// Its word in the database.
    fn as_str(self) -> &'static str;

    /// The value whose word is `text`.
    fn parse(text: &str) -> Result<Self, UnknownValue> {
        Self::ALL
            .iter()
            .copied()
            .find(|v| v.as_str() == text)
            .ok_or_else(|| UnknownValue {
                what: Self::WHAT,
                value: text.to_string(),
                allowed: words::<Self>(),
            })
    }
}

/// Every value's word, in order.
pub fn words<T: TextEnum>() -> Vec<&'static str> {
    T::ALL.iter().map(|v| v.as_str()).collect()
}

/// A word that is none of an enum's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownValue {
    pub what: &'static str,
    pub value: String,
    pub allowed: Vec<&'static str>,
}

impl fmt::Display for UnknownValue {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(
            f,
            "{} is one of {}, not '{}'",
            self.what,
            self.allowed.join(", "),
            self.value
        )
    }
}

impl std::error::Error for UnknownValue {}

/// Declares an enum of words: the enum, its [`TextEnum`] impl, `Display`
/// (padded as a `&str` is), `FromStr`, `ToSql` and `FromSql`.
macro_rules! text_enum {
    (
        $(#[$doc:meta])*
        pub enum $name:ident ($what:literal) {
            $($(#[$vdoc:meta])* $variant:ident = $text:literal,)+
        }
    ) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vdoc])* $variant,)+
        }

        impl TextEnum for $name {
            const WHAT: &'static str = $what;
            const ALL: &'static [$name] = &[$($name::$variant,)+];

            fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.pad(self.as_str())
            }
        }

        impl std::str::FromStr for $name {
            type Err = UnknownValue;

            fn from_str(text: &str) -> Result<$name, UnknownValue> {
                <$name as TextEnum>::parse(text)
            }
        }

        impl ToSql for $name {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::from(self.as_str()))
            }
        }

        impl FromSql for $name {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<$name> {
                <$name as TextEnum>::parse(value.as_str()?)
                    .map_err(|e| FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

text_enum! {
    /// What a run is (`runs.kind`).
    pub enum RunKind ("kind") {
        /// A round-robin tournament without an SPRT.
        Tournament = "tournament",
        Sprt = "sprt",
        /// A gauntlet without an SPRT.
        Gauntlet = "gauntlet",
        Tune = "tune",
        Datagen = "datagen",
        Bench = "bench",
    }
}

text_enum! {
    /// Where a run stands (`runs.status`).
    pub enum Status ("status") {
        Running = "running",
        Finished = "finished",
        H0 = "H0",
        H1 = "H1",
        /// Ended by a signal before its last game.
        Stopped = "stopped",
        /// A Slurm run ended by `autotest slurm cancel`.
        Cancelled = "cancelled",
        Failed = "failed",
    }
}

text_enum! {
    /// One of the engine's benchmarks (`benchmarks.measure`), in the
    /// order `autotest bench-record` runs them (`db::bench`).
    pub enum Measure ("measure") {
        /// `leiserchess bench --search pvs`.
        BenchPvs = "bench-pvs",
        /// `leiserchess bench --search mcts`.
        BenchMcts = "bench-mcts",
        Perft = "perft",
        Evalbench = "evalbench",
    }
}

text_enum! {
    /// What a store's artifact is (`artifacts.kind`): the engine's
    /// `lab::store::Kind`.
    pub enum ArtifactKind ("kind") {
        Dataset = "dataset",
        Net = "net",
    }
}

text_enum! {
    /// Whether an artifact is in the store (`artifacts.status`).
    pub enum ArtifactStatus ("status") {
        Kept = "kept",
        /// Known by its sha256 (or a prefix) only.
        Lost = "lost",
    }
}

text_enum! {
    /// What a parent was to its child (`artifact_parents.role`): the
    /// engine's `lab::store::Role`.
    pub enum ParentRole ("role") {
        Played = "played",
        Labelled = "labelled",
        TrainedOn = "trained-on",
        StartedFrom = "started-from",
        Baseline = "baseline",
    }
}

text_enum! {
    /// A step of an `autotest loop` generation (`loop_steps.step`): the
    /// loop's `net_loop::steps::Step`.
    pub enum LoopStep ("step") {
        Datagen = "datagen",
        Relabel = "relabel",
        Train = "train",
        Sprt = "sprt",
        Decide = "decide",
    }
}

text_enum! {
    /// How a loop's SPRT ended (`loop_generations.verdict`): the loop's
    /// `net_loop::executor::Verdict`.
    pub enum LoopVerdict ("verdict") {
        H1 = "H1",
        H0 = "H0",
        /// Every game played without a decision.
        Undecided = "undecided",
    }
}

text_enum! {
    /// What became of a loop's candidate (`loop_generations.decision`).
    pub enum Decision ("decision") {
        Promoted = "promoted",
        Rejected = "rejected",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::schema;
    use rusqlite::Connection;

    /// Each value's word parses back to it, through SQLite too; any other
    /// word is refused, naming it and the words allowed.
    fn round_trips<T: TextEnum + ToSql + FromSql + fmt::Debug + fmt::Display>() {
        let conn = Connection::open_in_memory().unwrap();
        for &v in T::ALL {
            assert_eq!(T::parse(v.as_str()), Ok(v));
            assert_eq!(v.to_string(), v.as_str());
            let back: T = conn.query_row("SELECT ?1", [v], |r| r.get(0)).unwrap();
            assert_eq!(back, v);
        }
        let e = T::parse("nonsense").unwrap_err();
        assert_eq!(
            e.to_string(),
            format!(
                "{} is one of {}, not 'nonsense'",
                T::WHAT,
                words::<T>().join(", ")
            )
        );
        let read: rusqlite::Result<T> = conn.query_row("SELECT 'nonsense'", [], |r| r.get(0));
        assert!(read.unwrap_err().to_string().contains("not 'nonsense'"));
    }

    #[test]
    fn every_value_round_trips() {
        round_trips::<RunKind>();
        round_trips::<Status>();
        round_trips::<Measure>();
        round_trips::<ArtifactKind>();
        round_trips::<ArtifactStatus>();
        round_trips::<ParentRole>();
        round_trips::<LoopStep>();
        round_trips::<LoopVerdict>();
        round_trips::<Decision>();
        assert_eq!(format!("[{:<10}]", Status::H1), "[H1        ]");
    }

    /// The words of `column`'s `CHECK (column IN (...))` in `table`'s
    /// definition.
    fn check_list(conn: &Connection, table: &str, column: &str) -> Vec<String> {
        let sql: String = conn
            .query_row(
                "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?1",
                [table],
                |r| r.get(0),
            )
            .unwrap();
        let start = format!("CHECK ({column} IN (");
        let list = sql
            .split_once(&start)
            .and_then(|(_, rest)| rest.split_once(')'))
            .unwrap_or_else(|| panic!("{table} has no {start}...)): {sql}"))
            .0;
        list.split(',')
            .map(|w| w.trim().trim_matches('\'').to_string())
            .collect()
    }

    /// A database made by every schema step allows exactly the enums'
    /// words: a value added to an enum needs a schema step that allows it.
    #[test]
    fn the_schemas_checks_are_the_enums() {
        let mut conn = Connection::open_in_memory().unwrap();
        schema::migrations().to_latest(&mut conn).unwrap();
        assert_eq!(check_list(&conn, "runs", "kind"), words::<RunKind>());
        assert_eq!(check_list(&conn, "runs", "status"), words::<Status>());
        assert_eq!(
            check_list(&conn, "benchmarks", "measure"),
            words::<Measure>()
        );
        assert_eq!(
            check_list(&conn, "artifacts", "kind"),
            words::<ArtifactKind>()
        );
        assert_eq!(
            check_list(&conn, "artifacts", "status"),
            words::<ArtifactStatus>()
        );
        assert_eq!(
            check_list(&conn, "artifact_parents", "role"),
            words::<ParentRole>()
        );
        assert_eq!(check_list(&conn, "loop_steps", "step"), words::<LoopStep>());
        assert_eq!(
            check_list(&conn, "loop_generations", "verdict"),
            words::<LoopVerdict>()
        );
        assert_eq!(
            check_list(&conn, "loop_generations", "decision"),
            words::<Decision>()
        );
    }
}

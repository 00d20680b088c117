//! A tunable's one declaration: its name, type, default and range, and the
//! field its value lands in. Each structure declares its own table beside
//! its definition (`eval::WEIGHTS`, `search::params::PARAMS`,
//! `search::params::TABLE`); its `Default` applies the table's defaults,
//! and the UCI options (`protocol::options`) list and apply the same rows,
//! so a default is written once.

/// What values a setting takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A whole number in `min..=max`.
    Spin { min: i64, max: i64 },
    /// A boolean (stored as 0 or 1).
    Check,
    /// An action, no value (`Clear Hash`).
    Button,
    /// Text (a file name); empty by default.
    Text,
}

/// A setting of a `T`.
pub struct Setting<T> {
    pub name: &'static str,
    pub kind: Kind,
    /// The default value (booleans as 0 or 1).
    pub default: i64,
    /// Stores a value (already in range) into its field.
    pub set: fn(&mut T, i64),
}

impl<T> Setting<T> {
    pub const fn spin(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        set: fn(&mut T, i64),
    ) -> Self {
        Setting {
            name,
            kind: Kind::Spin { min, max },
            default,
            set,
        }
    }

    pub const fn check(name: &'static str, default: bool, set: fn(&mut T, i64)) -> Self {
        Setting {
            name,
            kind: Kind::Check,
            default: default as i64,
            set,
        }
    }
}

/// `base` with each setting of `table` set to `value(setting)`.
pub fn apply<T>(mut base: T, table: &[Setting<T>], value: impl Fn(&Setting<T>) -> i64) -> T {
    for s in table {
        (s.set)(&mut base, value(s));
    }
    base
}

/// `base` with each setting of `table` at its default.
pub fn defaults<T>(base: T, table: &[Setting<T>]) -> T {
    apply(base, table, |s| s.default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, PartialEq, Debug)]
    struct Two {
        a: i32,
        b: bool,
    }

    const TWO: &[Setting<Two>] = &[
        Setting::spin("a", 7, 0, 9, |t, v| t.a = v as i32),
        Setting::check("b", true, |t, v| t.b = v != 0),
    ];

    #[test]
    fn defaults_and_values_land_in_their_fields() {
        assert_eq!(defaults(Two::default(), TWO), Two { a: 7, b: true });
        let set = apply(Two::default(), TWO, |s| if s.name == "a" { 3 } else { 0 });
        assert_eq!(set, Two { a: 3, b: false });
    }
}

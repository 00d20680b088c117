//! An option's one declaration: its name, kind, default and range, what
//! changing it sets off ([`Effect`]), and the field its value lands in.
//! Each structure declares its rows beside its definition
//! (`eval::WEIGHTS`, `search::params::PARAMS`, `search::tt::TABLE`,
//! `search::time::TIME`, `config::ENGINE_FIRST` and `ENGINE_LAST`); its `Default` applies the
//! rows' defaults, and the engine's configuration (`config`) lists, parses
//! and applies the same rows, so that a default is written once.

/// What values an option takes.
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
    /// One of the named choices, stored as its index.
    Combo { choices: &'static [&'static str] },
}

/// What the engine does when an option changes, beyond storing the value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Effect {
    /// Nothing: the next search reads the value.
    None,
    /// A new, empty transposition table: its size changed, or the scores
    /// in it came from another evaluation.
    NewTable,
    /// The net the option names is loaded (the embedded one when empty).
    LoadNet,
    /// The book the option names is loaded (the embedded one when empty).
    LoadBook,
    /// The move policy the option names is loaded (the embedded one when
    /// empty).
    LoadPolicy,
}

impl Effect {
    /// `d` with this effect (`Effect::NewTable.on(Declaration::spin(…))`).
    pub const fn on<T>(self, d: Declaration<T>) -> Declaration<T> {
        Declaration { effect: self, ..d }
    }
}

/// Where a value lands, and how it is read back.
pub enum Store<T> {
    /// A number (booleans as 0 or 1), set already in range.
    Number {
        set: fn(&mut T, i64),
        get: fn(&T) -> i64,
    },
    /// Text.
    Text {
        set: fn(&mut T, &str),
        get: fn(&T) -> &str,
    },
    /// Nothing: a button's whole meaning is its effect.
    Nothing,
}

/// The store of a number field (`number_field!(lmr_r1)`, or a path:
/// `number_field!(search.draw)`).
macro_rules! number_field {
    ($($f:ident).+) => {
        $crate::declaration::Store::Number {
            set: |t, v| t.$($f).+ = v as _,
            get: |t| t.$($f).+ as i64,
        }
    };
}

/// The store of a boolean field (0 or 1).
macro_rules! bool_field {
    ($($f:ident).+) => {
        $crate::declaration::Store::Number {
            set: |t, v| t.$($f).+ = v != 0,
            get: |t| t.$($f).+ as i64,
        }
    };
}

/// The store of a text field (a `String`).
macro_rules! text_field {
    ($($f:ident).+) => {
        $crate::declaration::Store::Text {
            set: |t, v| t.$($f).+ = v.to_string(),
            get: |t| &t.$($f).+,
        }
    };
}

pub(crate) use {bool_field, number_field, text_field};

/// One option of a `T`.
pub struct Declaration<T> {
    pub name: &'static str,
    pub kind: Kind,
    /// The default value (booleans as 0 or 1; 0 for text and buttons,
    /// whose default is empty).
    pub default: i64,
    pub effect: Effect,
    pub store: Store<T>,
    /// What the option does, in a line: docs/OPTIONS.md's table
    /// (`leiserchess options --markdown`) is made from it.
    pub about: &'static str,
}

impl<T> Declaration<T> {
    pub const fn spin(
        name: &'static str,
        default: i64,
        min: i64,
        max: i64,
        store: Store<T>,
        about: &'static str,
    ) -> Self {
        Declaration {
            name,
            kind: Kind::Spin { min, max },
            default,
            effect: Effect::None,
            store,
            about,
        }
    }

    pub const fn check(
        name: &'static str,
        default: bool,
        store: Store<T>,
        about: &'static str,
    ) -> Self {
        Declaration {
            name,
            kind: Kind::Check,
            default: default as i64,
            effect: Effect::None,
            store,
            about,
        }
    }

    /// One of `choices`, `default` the index of the default.
    pub const fn combo(
        name: &'static str,
        default: usize,
        choices: &'static [&'static str],
        store: Store<T>,
        about: &'static str,
    ) -> Self {
        Declaration {
            name,
            kind: Kind::Combo { choices },
            default: default as i64,
            effect: Effect::None,
            store,
            about,
        }
    }

    pub const fn text(name: &'static str, store: Store<T>, about: &'static str) -> Self {
        Declaration {
            name,
            kind: Kind::Text,
            default: 0,
            effect: Effect::None,
            store,
            about,
        }
    }

    pub const fn button(name: &'static str, about: &'static str) -> Self {
        Declaration {
            name,
            kind: Kind::Button,
            default: 0,
            effect: Effect::None,
            store: Store::Nothing,
            about,
        }
    }

    /// Stores the number `v` (already in range) in `target`; text options
    /// and buttons take none.
    pub fn set_number(&self, target: &mut T, v: i64) {
        if let Store::Number { set, .. } = self.store {
            set(target, v);
        }
    }
}

/// `base` with each numeric option of `table` set to `value(option)`.
pub fn apply<T>(
    mut base: T,
    table: &[Declaration<T>],
    value: impl Fn(&Declaration<T>) -> i64,
) -> T {
    for d in table {
        d.set_number(&mut base, value(d));
    }
    base
}

/// `base` with each option of `table` at its default.
pub fn defaults<T>(base: T, table: &[Declaration<T>]) -> T {
    apply(base, table, |d| d.default)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Default, PartialEq, Debug)]
    struct Two {
        a: i32,
        b: bool,
        c: String,
    }

    const TWO: &[Declaration<Two>] = &[
        Declaration::spin("a", 7, 0, 9, number_field!(a), "a number"),
        Effect::NewTable.on(Declaration::check("b", true, bool_field!(b), "a flag")),
        Declaration::text("c", text_field!(c), "a name"),
    ];

    #[test]
    fn defaults_and_values_land_in_their_fields() {
        let two = |a, b| Two {
            a,
            b,
            c: String::new(),
        };
        assert_eq!(defaults(Two::default(), TWO), two(7, true));
        let set = apply(Two::default(), TWO, |d| if d.name == "a" { 3 } else { 0 });
        assert_eq!(set, two(3, false));
        assert_eq!(TWO[1].effect, Effect::NewTable);
        assert_eq!(TWO[0].effect, Effect::None);
        let mut t = Two::default();
        TWO[0].set_number(&mut t, 5);
        let (Store::Number { get, .. }, Store::Text { set, get: read }) =
            (&TWO[0].store, &TWO[2].store)
        else {
            panic!("a number and a text")
        };
        set(&mut t, "x");
        assert_eq!((get(&t), read(&t)), (5, "x"));
    }
}

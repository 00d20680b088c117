use super::*;

#[test]
fn set_clamps_and_reports() {
    let mut c = EngineConfig::default();
    assert_eq!(c.threads, 1);
    let set = |c: &mut EngineConfig, name, value| c.set(name, Some(value)).map(|ch| ch.report);
    assert_eq!(set(&mut c, "Threads", "2").unwrap(), "threads set to 2");
    assert_eq!(c.threads, 2);
    assert!(set(&mut c, "threads", "999")
        .unwrap()
        .contains("outside 1..64"));
    assert_eq!(c.threads, 64);
    assert!(matches!(
        set(&mut c, "threads", "x"),
        Err(OptionError::NotANumber { .. })
    ));
    assert_eq!(
        set(&mut c, "hash", "99999999999999999999999999999999999999999").unwrap(),
        "hash set to 4096 (99999999999999999999999999999999999999999 is outside 1..4096)"
    );
    assert_eq!(c.table.hash_mb, 4096);
    assert_eq!(
        set(&mut c, "Hash", "-99999999999999999999").unwrap(),
        "hash set to 1 (-99999999999999999999 is outside 1..4096)"
    );
    assert!(matches!(
        set(&mut c, "hash", "1e3"),
        Err(OptionError::NotANumber { .. })
    ));
    assert!(matches!(
        set(&mut c, "nosuch", "1"),
        Err(OptionError::Unknown(_))
    ));
    assert!(matches!(
        c.set("threads", None),
        Err(OptionError::MissingValue(_))
    ));
    assert!(matches!(
        set(&mut c, "OwnBook", "yes"),
        Err(OptionError::NotABool { .. })
    ));
    assert_eq!(c.threads, 64);
    assert_eq!(
        set(&mut c, "bookfile", "a b.book").unwrap(),
        "BookFile set to 'a b.book'"
    );
    assert_eq!(c.book_file, "a b.book");
    assert_eq!(
        set(&mut c, "UCI_ShowWDL", "TRUE").unwrap(),
        "UCI_ShowWDL set to TRUE"
    );
    assert!(c.show_wdl);
}

#[test]
fn the_defaults_are_the_structures_defaults() {
    let c = EngineConfig::default();
    assert_eq!(c.search, Params::default());
    assert_eq!(c.table, TableSize::default());
    assert_eq!(c.clock, ClockUse::default());
    let none = SearchLimits::default();
    assert_eq!(c.limits(none), none);
    assert_eq!(c.draw_rules(), DrawRules::default());
    assert!(c.own_book && !c.show_wdl && c.book_file.is_empty() && c.eval_file.is_empty());
}

/// Every option lands somewhere: set away from its default, the
/// configuration differs (a button has only its effect), and each name is
/// declared once; a spin's range is not empty and holds its default.
#[test]
fn every_option_lands_and_is_declared_once() {
    for o in options() {
        let mut c = EngineConfig::default();
        let value = match o.kind() {
            Kind::Spin { min, max } => {
                assert!(
                    min < max && (min..=max).contains(&o.default()),
                    "option {}: default {} in {min}..{max}",
                    o.name(),
                    o.default()
                );
                (if o.default() == max { min } else { max }).to_string()
            }
            Kind::Check => (o.default() == 0).to_string(),
            Kind::Combo { choices } => choices[(o.default() as usize + 1) % choices.len()].into(),
            Kind::Text => "some file".to_string(),
            Kind::Button => {
                assert_eq!(c.set(o.name(), None).unwrap().effect, Effect::NewTable);
                continue;
            }
        };
        let change = c.set(o.name(), Some(&value)).unwrap();
        assert_eq!(change.effect, o.effect());
        assert_ne!(
            c,
            EngineConfig::default(),
            "option {} changes nothing",
            o.name()
        );
    }
    let names: Vec<_> = options().map(|o| o.name().to_ascii_lowercase()).collect();
    for (i, n) in names.iter().enumerate() {
        assert!(!names[..i].contains(n), "option {n} declared twice");
    }
}

#[test]
fn the_effects_are_declared_where_something_must_be_rebuilt() {
    let effect = |name| Entry::find(name).unwrap().effect();
    for name in ["hash", "tt_ways", "use_nnue", "Clear Hash"] {
        assert_eq!(effect(name), Effect::NewTable, "{name}");
    }
    assert_eq!(effect("EvalFile"), Effect::LoadNet);
    assert_eq!(effect("BookFile"), Effect::LoadBook);
    assert_eq!(effect("PolicyFile"), Effect::LoadPolicy);
    assert_eq!(effect("threads"), Effect::None);
    assert_eq!(effect("no_zap_plies"), Effect::None);
}

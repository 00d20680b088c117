//! The course's config files (`autotest CONFIG.txt`, lauto.jar's format):
//! any text through `parse_course_config`. A config it accepts must pass
//! `validate`, as every tournament does; a refused one must say why.

#![no_main]

use autotest::config::course_file::parse_course_config;
use autotest::config::validate;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // `config::course::load` reads the file as UTF-8 or refuses it.
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    match parse_course_config(text) {
        Ok(spec) => {
            assert!(spec.engines.len() >= 2);
            if let Err(e) = validate(&spec) {
                panic!("accepted, then refused by validate: {e}");
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});

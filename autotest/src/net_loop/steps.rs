//! The steps of one generation, in order: self-play data with the best
//! net, the data scored again by it (when the loop relabels), a candidate
//! trained, the SPRT of the candidate against the best, and the decision
//! (promotion on H1, rejection otherwise).

use std::fmt;

/// One step of a generation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Step {
    Datagen,
    Relabel,
    Train,
    Sprt,
    Decide,
}

/// Every step, in order, as the state file names them.
const ALL: [Step; 5] = [
    Step::Datagen,
    Step::Relabel,
    Step::Train,
    Step::Sprt,
    Step::Decide,
];

impl Step {
    /// Its name in the state file and the progress lines.
    pub fn name(self) -> &'static str {
        match self {
            Step::Datagen => "datagen",
            Step::Relabel => "relabel",
            Step::Train => "train",
            Step::Sprt => "sprt",
            Step::Decide => "decide",
        }
    }

    /// The step a name names.
    pub fn from_name(name: &str) -> Option<Step> {
        ALL.into_iter().find(|s| s.name() == name)
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A generation's steps: every one, `relabel` only when the loop
/// relabels.
pub fn steps(relabel: bool) -> Vec<Step> {
    ALL.into_iter()
        .filter(|&s| relabel || s != Step::Relabel)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_relabel_is_optional() {
        for s in ALL {
            assert_eq!(Step::from_name(s.name()), Some(s));
        }
        assert_eq!(Step::from_name("promote"), None);
        assert_eq!(steps(true), ALL);
        assert_eq!(
            steps(false),
            [Step::Datagen, Step::Train, Step::Sprt, Step::Decide]
        );
    }
}

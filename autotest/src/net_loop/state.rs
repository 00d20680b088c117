//! The loop's state file, `DIR/loop.json`: the settings it was started
//! with, when it started, where it is (the generation and the step to
//! run next), the best net, the rejections in a row, and every step done
//! with its time, its end and what it made (paths and sha256 of the data and net
//! files, the SPRT's PGN and verdict). It is written after each step
//! ends, to a temporary file renamed over the old one, so a kill leaves
//! the old state or the new, never a torn one.

use super::executor::{Artifact, SprtResult, Verdict};
use super::steps::Step;
use serde_json::{json, Map, Value};
use std::path::{Path, PathBuf};

/// The state file's name in the loop's folder.
pub const FILE: &str = "loop.json";
/// The state file's format, written and required.
const FORMAT: u64 = 1;

/// What a step made.
#[derive(Clone, Debug, PartialEq)]
pub enum Made {
    /// `datagen`, `relabel`, `train`: the file.
    File(Artifact),
    /// The SPRT.
    Sprt(SprtResult),
    /// The candidate promoted, and its copy as the loop's best net.
    Promoted(Artifact),
    /// The candidate rejected.
    Rejected,
}

/// One step done.
#[derive(Clone, Debug, PartialEq)]
pub struct StepRecord {
    pub step: Step,
    /// How long its last (finished) run took.
    pub seconds: f64,
    /// When that run ended, seconds since the Unix epoch.
    pub ended: f64,
    pub made: Made,
}

/// A generation's steps done, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Generation {
    pub number: u32,
    pub steps: Vec<StepRecord>,
}

impl Generation {
    /// What its `step` made, if it is done.
    pub fn made(&self, step: Step) -> Option<&Made> {
        self.steps.iter().find(|r| r.step == step).map(|r| &r.made)
    }
}

/// The whole state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The settings a restart must repeat, flag and value (`None`: not
    /// given), by flag (as the file keeps them).
    pub settings: Vec<(String, Option<String>)>,
    /// When the loop first started, seconds since the Unix epoch.
    pub started: f64,
    /// The generation in progress, from 1.
    pub generation: u32,
    /// Its next step.
    pub step: Step,
    /// The best net; `None`: the engine's embedded one.
    pub best: Option<Artifact>,
    /// Candidates rejected since the last promotion.
    pub rejections: u32,
    /// Every generation begun, the last perhaps unfinished.
    pub generations: Vec<Generation>,
}

impl State {
    /// A loop about to start.
    pub fn new(mut settings: Vec<(String, Option<String>)>, now: f64) -> State {
        settings.sort();
        State {
            settings,
            started: now,
            generation: 1,
            step: Step::Datagen,
            best: None,
            rejections: 0,
            generations: Vec::new(),
        }
    }

    /// The state in `dir`, or a new one; a state started with other
    /// settings is refused naming each that differs, unless `force`,
    /// which takes the new ones (`changed` tells what was replaced).
    pub fn open(
        dir: &Path,
        settings: Vec<(String, Option<String>)>,
        force: bool,
        now: f64,
        changed: impl FnOnce(&[String]),
    ) -> Result<State, String> {
        let path = dir.join(FILE);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(State::new(settings, now))
            }
            Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
        };
        let mut state = State::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let differ = differences(&state.settings, &settings);
        if !differ.is_empty() {
            if !force {
                return Err(format!(
                    "{} was started with another command: {}; run the same command to go on, \
                     or add --force to go on with the new settings",
                    path.display(),
                    differ.join("; ")
                ));
            }
            changed(&differ);
            state.settings = State::new(settings, now).settings;
        }
        Ok(state)
    }

    /// The generation in progress's record, made if it has none yet.
    pub fn current(&mut self) -> &mut Generation {
        if self.generations.last().map(|g| g.number) != Some(self.generation) {
            self.generations.push(Generation {
                number: self.generation,
                steps: Vec::new(),
            });
        }
        self.generations.last_mut().expect("pushed")
    }

    /// The record of generation `number`, if it was begun.
    pub fn generation(&self, number: u32) -> Option<&Generation> {
        self.generations.iter().find(|g| g.number == number)
    }

    /// Writes the state to `dir`'s state file: a temporary file beside
    /// it, synced, then renamed over it.
    pub fn save(&self, dir: &Path) -> Result<(), String> {
        let path = dir.join(FILE);
        let temporary = dir.join(format!("{FILE}.tmp"));
        let text = serde_json::to_string_pretty(&self.to_json()).expect("JSON of plain values");
        let write = || -> std::io::Result<()> {
            use std::io::Write;
            let mut f = std::fs::File::create(&temporary)?;
            f.write_all(text.as_bytes())?;
            f.write_all(b"\n")?;
            f.sync_all()?;
            std::fs::rename(&temporary, &path)
        };
        write().map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    fn to_json(&self) -> Value {
        let settings: Map<String, Value> = self
            .settings
            .iter()
            .map(|(k, v)| (k.clone(), v.as_ref().map_or(Value::Null, |v| json!(v))))
            .collect();
        json!({
            "format": FORMAT,
            "settings": settings,
            "started": self.started,
            "generation": self.generation,
            "step": self.step.name(),
            "best": self.best.as_ref().map(artifact_json),
            "rejections_in_a_row": self.rejections,
            "generations": self.generations.iter().map(|g| json!({
                "generation": g.number,
                "steps": g.steps.iter().map(step_json).collect::<Vec<_>>(),
            })).collect::<Vec<_>>(),
        })
    }

    /// The state a file's text holds; the error says what is wrong where.
    pub fn from_json(text: &str) -> Result<State, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("not JSON: {e}"))?;
        let format = field(&v, "format")?.as_u64();
        if format != Some(FORMAT) {
            return Err(format!(
                "format {} is not this autotest's ({FORMAT})",
                field(&v, "format")?
            ));
        }
        let settings = field(&v, "settings")?
            .as_object()
            .ok_or("'settings' is not an object")?
            .iter()
            .map(|(k, v)| match v {
                Value::Null => Ok((k.clone(), None)),
                Value::String(s) => Ok((k.clone(), Some(s.clone()))),
                _ => Err(format!("settings: '{k}' is not a string")),
            })
            .collect::<Result<_, String>>()?;
        let generations = list(&v, "generations")?
            .iter()
            .map(generation_from)
            .collect::<Result<_, String>>()?;
        Ok(State {
            settings,
            started: number(&v, "started")?,
            generation: whole(&v, "generation")?,
            step: step_from(&v)?,
            best: match field(&v, "best")? {
                Value::Null => None,
                a => Some(artifact_from(a).map_err(|e| format!("best: {e}"))?),
            },
            rejections: whole(&v, "rejections_in_a_row")?,
            generations,
        })
    }
}

/// `--flag was A, now B` for each setting of `old` and `new` that differs.
pub fn differences(
    old: &[(String, Option<String>)],
    new: &[(String, Option<String>)],
) -> Vec<String> {
    let shown = |v: Option<&Option<String>>| match v.cloned().flatten() {
        Some(v) => format!("'{v}'"),
        None => "not given".to_string(),
    };
    let find = |list: &[(String, Option<String>)], k: &str| {
        list.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    };
    let mut names: Vec<&String> = new.iter().map(|(k, _)| k).collect();
    names.extend(
        old.iter()
            .map(|(k, _)| k)
            .filter(|k| find(new, k).is_none()),
    );
    names
        .into_iter()
        .filter_map(|k| {
            let (was, now) = (find(old, k), find(new, k));
            (was.clone().flatten() != now.clone().flatten()).then(|| {
                format!(
                    "{k} was {}, now {}",
                    shown(was.as_ref()),
                    shown(now.as_ref())
                )
            })
        })
        .collect()
}

fn artifact_json(a: &Artifact) -> Value {
    json!({ "path": a.path.display().to_string(), "sha256": a.sha256 })
}

fn step_json(r: &StepRecord) -> Value {
    let made = match &r.made {
        Made::File(a) => json!({ "file": artifact_json(a) }),
        Made::Sprt(s) => json!({ "sprt": {
            "pgn": artifact_json(&s.pgn),
            "verdict": s.verdict.name(),
            "llr": s.llr,
            "wins": s.wdl[0],
            "draws": s.wdl[1],
            "losses": s.wdl[2],
        }}),
        Made::Promoted(a) => json!({ "promoted": artifact_json(a) }),
        Made::Rejected => json!({ "rejected": true }),
    };
    json!({ "step": r.step.name(), "seconds": r.seconds, "ended": r.ended, "made": made })
}

fn field<'a>(v: &'a Value, name: &str) -> Result<&'a Value, String> {
    v.get(name).ok_or_else(|| format!("no '{name}'"))
}

fn number(v: &Value, name: &str) -> Result<f64, String> {
    field(v, name)?
        .as_f64()
        .ok_or_else(|| format!("'{name}' is not a number"))
}

fn whole(v: &Value, name: &str) -> Result<u32, String> {
    let n = field(v, name)?.as_u64().and_then(|n| u32::try_from(n).ok());
    n.ok_or_else(|| format!("'{name}' is not a whole number"))
}

fn text<'a>(v: &'a Value, name: &str) -> Result<&'a str, String> {
    field(v, name)?
        .as_str()
        .ok_or_else(|| format!("'{name}' is not a string"))
}

fn list<'a>(v: &'a Value, name: &str) -> Result<&'a Vec<Value>, String> {
    field(v, name)?
        .as_array()
        .ok_or_else(|| format!("'{name}' is not a list"))
}

fn step_from(v: &Value) -> Result<Step, String> {
    let name = text(v, "step")?;
    Step::from_name(name).ok_or_else(|| format!("no step is named '{name}'"))
}

fn artifact_from(v: &Value) -> Result<Artifact, String> {
    Ok(Artifact {
        path: PathBuf::from(text(v, "path")?),
        sha256: text(v, "sha256")?.to_string(),
    })
}

fn generation_from(v: &Value) -> Result<Generation, String> {
    let number = whole(v, "generation")?;
    let steps = list(v, "steps")?
        .iter()
        .map(step_record_from)
        .collect::<Result<_, String>>()
        .map_err(|e| format!("generation {number}: {e}"))?;
    Ok(Generation { number, steps })
}

fn step_record_from(v: &Value) -> Result<StepRecord, String> {
    let step = step_from(v)?;
    let made = field(v, "made")?;
    let made = if let Some(a) = made.get("file") {
        Made::File(artifact_from(a)?)
    } else if let Some(s) = made.get("sprt") {
        let verdict = text(s, "verdict")?;
        Made::Sprt(SprtResult {
            pgn: artifact_from(field(s, "pgn")?)?,
            verdict: Verdict::from_name(verdict)
                .ok_or_else(|| format!("no SPRT verdict is named '{verdict}'"))?,
            llr: number(s, "llr")?,
            wdl: [
                whole(s, "wins")?.into(),
                whole(s, "draws")?.into(),
                whole(s, "losses")?.into(),
            ],
        })
    } else if let Some(a) = made.get("promoted") {
        Made::Promoted(artifact_from(a)?)
    } else if made.get("rejected").is_some() {
        Made::Rejected
    } else {
        return Err(format!("step {step}: 'made' names nothing it knows"));
    };
    Ok(StepRecord {
        step,
        seconds: number(v, "seconds")?,
        ended: number(v, "ended")?,
        made,
    })
}

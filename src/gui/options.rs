//! The engine's options on the page: `GET /api/options` lists every
//! option the engine declares (as `uci` does: name, type, default, range)
//! with its value now, and `POST /api/options` sets one as `setoption`
//! does (the same parsing, clamping and refusals) and carries out its
//! effect for the searches that start after it. The GUI plays no book
//! moves, so an option that loads a book is refused.

use super::api::{body, ok, Answer, ApiError};
use super::state::{AppState, Engine};
use crate::config::{options, Entry, OptionError, Value as Current};
use crate::declaration::{Effect, Kind};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::{json, Value};
use std::sync::Arc;

/// `GET /api/options`.
pub async fn list(State(state): State<Arc<AppState>>) -> Answer {
    Ok(ok(listing(&state.engine())))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetOption {
    name: String,
    /// Text, a number or a boolean; none for a button.
    value: Option<Value>,
}

/// `POST /api/options` with `{"name": …, "value": …}`: the answer has
/// `setoption`'s report line and the options as they now are.
pub async fn set(
    State(state): State<Arc<AppState>>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SetOption = body(&headers, bytes)?;
    let text = match req.value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s),
        Some(v @ (Value::Number(_) | Value::Bool(_))) => Some(v.to_string()),
        Some(_) => {
            return Err(ApiError::bad(
                "value",
                "a value is text, a number or true/false",
            ))
        }
    };
    let mut engine = state.engine();
    let before = engine.config.clone();
    let change = engine
        .config
        .set(&req.name, text.as_deref())
        .map_err(|e| match e {
            OptionError::Unknown(_) => ApiError::bad("name", e.to_string()),
            _ => ApiError::bad("value", e.to_string()),
        })?;
    match change.effect {
        // Every search starts with a table of its own.
        Effect::None | Effect::NewTable => {}
        Effect::LoadNet => match engine.config.net() {
            Ok(net) => engine.net = net,
            Err(e) => {
                engine.config = before;
                return Err(ApiError::bad("value", format!("{e}; net unchanged")));
            }
        },
        Effect::LoadPolicy => match engine.config.policy() {
            Ok(policy) => engine.policy = policy,
            Err(e) => {
                engine.config = before;
                return Err(ApiError::bad("value", format!("{e}; policy unchanged")));
            }
        },
        Effect::LoadBook => {
            engine.config = before;
            return Err(ApiError::bad("name", "the GUI plays no book moves"));
        }
    }
    let mut answer = listing(&engine);
    answer["report"] = json!(change.report);
    Ok(ok(answer))
}

/// Every option with its declaration and its value in `engine`.
fn listing(engine: &Engine) -> Value {
    let all: Vec<Value> = options()
        .map(|o| {
            let mut v = json!({
                "name": o.name(),
                "type": kind_name(o.kind()),
                "value": value(engine, o),
            });
            match o.kind() {
                Kind::Spin { min, max } => {
                    v["default"] = json!(o.default());
                    v["min"] = json!(min);
                    v["max"] = json!(max);
                }
                Kind::Check => v["default"] = json!(o.default() != 0),
                Kind::Text => v["default"] = json!(""),
                Kind::Combo { choices } => {
                    v["default"] = json!(choices[o.default() as usize]);
                    v["choices"] = json!(choices);
                }
                Kind::Button => {}
            }
            v
        })
        .collect();
    json!({ "options": all })
}

fn kind_name(k: Kind) -> &'static str {
    match k {
        Kind::Spin { .. } => "spin",
        Kind::Check => "check",
        Kind::Button => "button",
        Kind::Text => "string",
        Kind::Combo { .. } => "combo",
    }
}

/// The option's value now, read back from the typed configuration.
fn value(engine: &Engine, o: Entry) -> Value {
    match (o.kind(), o.value(&engine.config)) {
        (Kind::Check, Current::Number(v)) => json!(v != 0),
        (Kind::Combo { choices }, Current::Number(v)) => json!(choices[v as usize]),
        (_, Current::Number(v)) => json!(v),
        (_, Current::Text(t)) => json!(t),
        (_, Current::None) => Value::Null,
    }
}

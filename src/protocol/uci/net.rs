//! The learned evaluation's net in the loop: `EvalFile` loads one (empty:
//! the embedded net; a bad file is an error line and the net in use
//! stays), and a new net or a switch of `use_nnue` starts a new table,
//! since the old one's scores came from the other evaluation.

use super::{say, Engine};
use crate::user_text::quote;

impl Engine {
    /// Loads the net `EvalFile` names. On failure the option goes back to
    /// `previous`, whose net stays.
    pub(super) fn load_net(&mut self, previous: &str, out: &mut Vec<u8>) {
        let path = self.config.eval_file.clone();
        match self.config.net() {
            Ok(net) => {
                let what = if path.is_empty() {
                    "the embedded net".to_string()
                } else {
                    format!("net '{}'", quote(&path))
                };
                say(out, format!("{what}: {} inputs", net.inputs()));
                self.net = net;
                self.renew_table();
            }
            Err(e) => {
                say(out, format!("error: {e}; net unchanged"));
                self.config.eval_file = previous.to_string();
            }
        }
    }
}

//! The UCI loop (PROTOCOL.md).
use std::io::{BufRead, Write};

pub fn run(input: impl BufRead, mut output: impl Write) {
    for line in input.lines().map_while(Result::ok) {
        if line.trim() == "quit" {
            break;
        }
        let _ = writeln!(output, "info string unknown command");
    }
}

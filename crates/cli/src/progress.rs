//! Progress bars for commands that can run longer than a few seconds, drawn on standard
//! error only when it is a terminal (never in pipes, files or tests).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A bar for `len` steps of `unit` (e.g. "games"), or `None` off a terminal.
pub fn bar(len: u64, unit: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new(len);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {unit} {{per_sec}} eta {{eta}}"
        ))
        .expect("valid template"),
    );
    Some(bar)
}

/// A spinner with the elapsed time, for work that cannot count its steps (perft), or `None`
/// off a terminal.
pub fn spinner(message: &str) -> Option<ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} {elapsed}").expect("valid template"),
    );
    bar.set_message(message.to_string());
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

/// Prints a line on standard output without tearing the bar.
pub fn println(bar: &Option<ProgressBar>, line: &str) {
    match bar {
        Some(bar) => bar.suspend(|| println!("{line}")),
        None => println!("{line}"),
    }
}

/// Advances `bar` by `n` steps, if there is one.
pub fn advance(bar: &Option<ProgressBar>, n: u64) {
    if let Some(bar) = bar {
        bar.inc(n);
    }
}

/// Removes `bar` from the terminal, if there is one.
pub fn finish(bar: Option<ProgressBar>) {
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
}

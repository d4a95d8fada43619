//! `gamelab serve`: the web app on this machine.

use std::path::PathBuf;

use anyhow::Context;
use clap::Args;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (127.0.0.1 only); 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
    /// A folder of model files the page's AIs may use, named by their file name (e.g.
    /// `engine:model=mine.glopat`); without it, AI specs from the page name no files.
    #[arg(long, value_name = "FOLDER")]
    models: Option<PathBuf>,
    /// An outside program the page's AIs may run, by NAME: `--engine nboard:edax="edax -q"`
    /// lets the page play `nboard:cmd=edax`, and `--engine gtp:grhino=gtp-rhino` a GTP
    /// engine, `gtp:cmd=grhino` (repeat for more). The protocol, `nboard` or `gtp`, may be
    /// left out (`--engine edax="edax -q"`): the page then offers the program to both.
    /// Without it, AI specs from the page run no program.
    #[arg(long = "engine", value_name = "[PROTOCOL:]NAME=COMMAND", value_parser = named_program)]
    engines: Vec<gamelab_core::NamedProgram>,
    /// A folder of WTHOR files (`*.wtb`, with `WTHOR.JOU` and `WTHOR.TRN` for the names)
    /// whose Othello games the page can find by player, tournament or year and open, e.g.
    /// `../shared/data/othello/wthor`.
    #[arg(long, value_name = "FOLDER")]
    wthor: Option<PathBuf>,
}

/// `[PROTOCOL:]NAME=COMMAND`, NAME a plain word (the page names it in a spec), PROTOCOL
/// one that the catalogue's AIs speak.
fn named_program(text: &str) -> Result<gamelab_core::NamedProgram, String> {
    let (name, command) = text.split_once('=').ok_or_else(|| {
        "expected [PROTOCOL:]NAME=COMMAND, e.g. nboard:edax=\"edax -q\"".to_string()
    })?;
    let (protocol, name) = match name.split_once(':') {
        Some((protocol, name)) => (Some(protocol.trim()), name),
        None => (None, name),
    };
    if let Some(protocol) = protocol {
        let spoken = gamelab_games::program_protocols();
        if !spoken.contains(&protocol) {
            return Err(format!(
                "`{protocol}` is not a protocol of the AIs that run programs; expected {}",
                spoken.join(" or ")
            ));
        }
    }
    let (name, command) = (name.trim(), command.trim());
    let plain = !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_-".contains(&b));
    if !plain {
        return Err(format!(
            "`{name}` is not a plain name: letters, digits, `_` and `-`, at most 64"
        ));
    }
    if command.is_empty() {
        return Err(format!("the engine `{name}` has no command"));
    }
    Ok(gamelab_core::NamedProgram {
        name: name.to_string(),
        command: command.to_string(),
        protocol: protocol.map(str::to_string),
    })
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    if let Some(folder) = &args.models
        && !folder.is_dir()
    {
        anyhow::bail!("--models {}: not a folder", folder.display());
    }
    let runtime =
        tokio::runtime::Runtime::new().context("cannot start the web server's runtime")?;
    if let Some(i) = (1..args.engines.len()).find(|&i| {
        args.engines[..i]
            .iter()
            .any(|e| e.name == args.engines[i].name)
    }) {
        anyhow::bail!("--engine {}: the name is given twice", args.engines[i].name);
    }
    let wthor = match &args.wthor {
        Some(folder) => {
            let db = gamelab_othello::wthor_database::Database::open(folder)
                .with_context(|| format!("--wthor {}", folder.display()))?;
            println!("{} WTHOR games from {}", db.len(), folder.display());
            Some(std::sync::Arc::new(db))
        }
        None => None,
    };
    let config = gamelab_web::Config {
        wthor,
        models: args.models,
        engines: args.engines,
        port: args.port,
        ..Default::default()
    };
    runtime
        .block_on(gamelab_web::serve(config, |addr| {
            println!("gamelab is serving on http://{addr}/ (Ctrl-C to stop)");
        }))
        .with_context(|| format!("cannot serve on 127.0.0.1:{}", args.port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engines_are_named_with_or_without_a_protocol() {
        let named = named_program("nboard:edax=edax -q").unwrap();
        assert_eq!(
            (
                named.name.as_str(),
                named.command.as_str(),
                named.protocol.as_deref()
            ),
            ("edax", "edax -q", Some("nboard"))
        );
        let named = named_program(" grhino = gtp-rhino -l 4").unwrap();
        assert_eq!(
            (named.name.as_str(), named.command.as_str(), named.protocol),
            ("grhino", "gtp-rhino -l 4", None)
        );
        assert_eq!(
            named_program("gtp:g=x").unwrap().protocol.as_deref(),
            Some("gtp")
        );
        for (text, needle) in [
            ("edax", "expected [PROTOCOL:]NAME=COMMAND"),
            (
                "uci:stockfish=stockfish",
                "`uci` is not a protocol of the AIs that run programs; expected nboard or gtp",
            ),
            ("nboard:=edax", "`` is not a plain name"),
            ("nboard:a b=edax", "`a b` is not a plain name"),
            ("nboard:edax=", "the engine `edax` has no command"),
        ] {
            let error = named_program(text).unwrap_err();
            assert!(error.contains(needle), "{text}: {error}");
        }
    }
}

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
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    if let Some(folder) = &args.models
        && !folder.is_dir()
    {
        anyhow::bail!("--models {}: not a folder", folder.display());
    }
    let runtime =
        tokio::runtime::Runtime::new().context("cannot start the web server's runtime")?;
    let config = gamelab_web::Config {
        models: args.models,
        port: args.port,
        ..Default::default()
    };
    runtime
        .block_on(gamelab_web::serve(config, |addr| {
            println!("gamelab is serving on http://{addr}/ (Ctrl-C to stop)");
        }))
        .with_context(|| format!("cannot serve on 127.0.0.1:{}", args.port))
}

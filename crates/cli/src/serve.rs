//! `gamelab serve`: the web app on this machine.

use anyhow::Context;
use clap::Args;

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Port to listen on (127.0.0.1 only); 0 picks a free one.
    #[arg(long, default_value_t = 8080)]
    port: u16,
}

pub fn run(args: ServeArgs) -> anyhow::Result<()> {
    let runtime =
        tokio::runtime::Runtime::new().context("cannot start the web server's runtime")?;
    runtime
        .block_on(gamelab_web::serve(args.port, |addr| {
            println!("gamelab is serving on http://{addr}/ (Ctrl-C to stop)");
        }))
        .with_context(|| format!("cannot serve on 127.0.0.1:{}", args.port))
}

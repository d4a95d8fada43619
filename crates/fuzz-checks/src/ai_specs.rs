//! AI specs, for every game of the catalogue: reading never panics, a spec that reads
//! prints back to itself, and building one (with no file access, as the web app does)
//! either works or says why. The same text read as a game clock never panics either.

use gamelab_core::{AgentSpec, Described, FileAccess, GameVisitor};

struct Build<'a>(&'a str);

impl GameVisitor for Build<'_> {
    type Output = ();
    fn visit<G: Described>(self) {
        let _ = G::registry().build_with(
            self.0,
            &FileAccess::Served {
                models: None,
                programs: Vec::new(),
            },
        );
    }
}

pub fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(spec) = AgentSpec::parse(text) {
        let printed = spec.to_string();
        assert_eq!(AgentSpec::parse(&printed).as_ref(), Ok(&spec), "{printed}");
    }
    for game in gamelab_games::NAMES {
        gamelab_games::visit(game, None, Build(text)).expect("a catalogue name");
    }
    // Game clocks come as text too (`--clock`, the web app's games and runs): reading one
    // never panics, and one that reads starts a clock that can be charged.
    if let Ok(control) = text.parse::<gamelab_core::clock::TimeControl>()
        && let Some(mut clock) = control.start()
    {
        let _ = clock.move_time(20);
        let _ = clock.reading_after(std::time::Duration::from_secs(3600));
        let _ = clock.spend(std::time::Duration::from_millis(1500));
    }
}

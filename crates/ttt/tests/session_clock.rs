//! A game played on a clock (gamelab-core's play session, as the web app and `gamelab
//! play` drive it), on tic-tac-toe: a person's clock runs while their turn lasts, an AI's
//! while it thinks, a flag ends the game, and takebacks bring the clocks back. The time
//! is a manual one, moved by the tests: what the clocks read is exact on any machine.

use std::time::Duration;

use gamelab_core::clock::{TimeControl, TimeSource};
use gamelab_core::session::{PlaySession, Seat, SessionError};
use gamelab_core::{Agent, Game, GameRng, Side};
use gamelab_ttt::Ttt;

fn humans(clock: &str, time: &TimeSource) -> PlaySession<Ttt> {
    let mut session = PlaySession::new(Ttt::start(), [Seat::Human, Seat::Human], 0);
    session.set_time_source(time.clone());
    session.set_clock(clock.parse::<TimeControl>().unwrap());
    session
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn a_persons_clock_runs_on_their_turn_and_the_flag_ends_the_game() {
    let time = TimeSource::manual();
    let mut session = humans("1", &time);
    time.advance(ms(30));
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.running, Some(Side::First));
    assert_eq!(reading.left.map(|l| l.0), [ms(970), ms(1000)]);
    time.advance(ms(20));
    session.play_text("1,1").unwrap();
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.running, Some(Side::Second));
    let first = reading.left[0].0;
    assert_eq!(first, ms(950));
    // Just in time, the second side's flag has not fallen.
    time.advance(ms(1000));
    assert_eq!(session.flag(), None);
    assert_eq!(session.clock_reading().unwrap().left[1].0, ms(0));
    // It waits past its time: its flag falls, its late move is not played.
    time.advance(ms(1));
    let flag = session.flag().expect("the flag fell");
    assert_eq!(flag.side, Side::Second);
    assert!(
        flag.reason.starts_with("x's time ran out"),
        "{}",
        flag.reason
    );
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.running, None);
    assert_eq!(reading.left[1].0, Duration::ZERO);
    assert_eq!(
        reading.left[0].0, first,
        "the first side's clock stood still"
    );
    let e = session.play_text("0,0").unwrap_err();
    assert!(matches!(e, SessionError::OutOfTime(_)), "{e}");
    assert!(e.to_string().contains("x's time ran out"), "{e}");
    assert_eq!(session.cursor(), 1);
    // Undo brings back the clocks as they stood in the position shown: no flag there.
    session.undo().unwrap();
    assert_eq!(session.flag(), None);
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.left[1].0, ms(1000));
    assert_eq!(reading.running, Some(Side::First));
    // Redo shows the position after the first move with its clocks, running again.
    session.redo().unwrap();
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.left.map(|l| l.0), [first, ms(1000)]);
    assert_eq!(session.flag(), None);
}

#[test]
fn an_increment_is_added_after_each_move_and_moves_replayed_cost_nothing() {
    let time = TimeSource::manual();
    let mut session = PlaySession::new(Ttt::start(), [Seat::Human, Seat::Human], 0);
    session.set_time_source(time.clone());
    session.play_any("1,1").unwrap();
    session.set_clock("10+2".parse().unwrap());
    time.advance(ms(20));
    session.play_text("0,0").unwrap();
    let reading = session.clock_reading().unwrap();
    let x = reading.left[1].0;
    assert_eq!(x, ms(11_980));
    assert_eq!(reading.left[0].0, ms(10_000));
    // A move replayed from a record costs nobody anything: o's clock stands where it
    // stood before its turn, x's runs from where its move left it.
    time.advance(ms(5));
    session.play_any("2,2").unwrap();
    time.advance(ms(7));
    let after = session.clock_reading().unwrap();
    assert_eq!(after.left.map(|l| l.0), [ms(10_000), x - ms(7)]);
    // A move after a takeback starts a new line with the clocks of its position.
    session.undo().unwrap();
    session.undo().unwrap();
    time.advance(ms(100));
    session.play_text("0,2").unwrap();
    assert_eq!(session.line().len(), 2);
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.left[1].0, ms(11_900));
    // Off the clock: no readings.
    session.set_clock(TimeControl::Unlimited);
    assert_eq!(session.clock_reading(), None);
    assert_eq!(session.flag(), None);
}

/// An AI that thinks for a fixed time, whatever its clock says, and notes the share it
/// was given.
struct Slow {
    think: Duration,
    time: TimeSource,
    told: std::sync::Arc<std::sync::Mutex<Vec<Option<Duration>>>>,
}

impl Agent<Ttt> for Slow {
    fn choose(&mut self, game: &Ttt, _rng: &mut GameRng) -> <Ttt as Game>::Move {
        self.time.advance(self.think);
        game.legal_moves()[0]
    }

    fn set_move_time(&mut self, limit: Option<Duration>) -> bool {
        self.told.lock().unwrap().push(limit);
        true
    }
}

#[test]
fn an_ai_is_told_its_share_charged_its_thinking_and_loses_when_it_runs_over() {
    let time = TimeSource::manual();
    let told = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let slow = |think: u64| Seat::Ai {
        spec: "slow".to_string(),
        agent: Box::new(Slow {
            think: ms(think),
            time: time.clone(),
            told: told.clone(),
        }),
    };
    let mut session = PlaySession::new(Ttt::start(), [slow(30), Seat::Human], 0);
    session.set_time_source(time.clone());
    session.set_clock("1".parse().unwrap());
    // The AI's clock does not run before it is asked to move (charged, the wait alone
    // would leave 0.4 s).
    time.advance(ms(600));
    session.ai_move().unwrap();
    let reading = session.clock_reading().unwrap();
    assert_eq!(reading.left[0].0, ms(970));
    // An even share of what is left (less a twentieth kept back) over the five moves
    // it plans for.
    let share = told.lock().unwrap()[0].unwrap();
    assert_eq!(share, ms(190));
    // Over its time: it loses, and its move is not played.
    let mut session = PlaySession::new(Ttt::start(), [slow(120), Seat::Human], 0);
    session.set_time_source(time.clone());
    session.set_clock("0.1".parse().unwrap());
    let e = session.ai_move().unwrap_err();
    assert!(matches!(e, SessionError::OutOfTime(_)), "{e}");
    assert_eq!(session.cursor(), 0);
    let flag = session.flag().unwrap();
    assert_eq!(flag.side, Side::First);
    assert!(flag.reason.contains("its move took 0.1"), "{}", flag.reason);
    assert!(session.ai_move().is_err());
}

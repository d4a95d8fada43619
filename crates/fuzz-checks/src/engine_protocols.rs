//! Lines for the engine sides of the NBoard and GTP protocols (`gamelab nboard`, `gamelab
//! gtp`), playing `greedy` (which answers at once, whatever depth a command asks for):
//! every line gets well-formed answers — NBoard replies of one line each, a GTP answer that
//! starts with `=` or `?`, echoes the command's number and ends with one empty line.

pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let mut nboard = gamelab_othello::nboard_session::Session::new("greedy").unwrap();
    let mut gtp = gamelab_othello::gtp_session::Session::new("greedy").unwrap();
    for line in text.lines().take(64) {
        if !nboard.quit {
            for reply in nboard.handle(line) {
                assert!(
                    !reply.contains('\n'),
                    "an NBoard reply is one line: {reply:?}"
                );
            }
        }
        if !gtp.quit
            && let Some(answer) = gtp.handle(line)
        {
            assert!(answer.starts_with(['=', '?']), "{answer:?}");
            let body = answer
                .strip_suffix("\n\n")
                .expect("an answer ends with an empty line");
            assert!(
                !body.contains("\n\n"),
                "one empty line, at the end: {answer:?}"
            );
            // The number a command carries, as the session reads it.
            let clean = gamelab_othello::gtp_session::preprocess(line);
            let id = match clean.split_whitespace().next() {
                Some(w) if w.bytes().all(|b| b.is_ascii_digit()) => w,
                _ => "",
            };
            let echoed: String = answer[1..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            assert_eq!(echoed, id, "the number echoed: {line:?} → {answer:?}");
        }
    }
}

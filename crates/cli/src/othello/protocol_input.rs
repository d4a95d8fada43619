//! The lines an engine protocol's driver sends on standard input, as the sessions take
//! them: each at most a mebibyte, and text whatever the bytes (a line that is not UTF-8
//! reads with replacement characters, so the session answers it as the unknown command it
//! is and goes on).

use std::io::{BufRead, Read};

/// The longest line kept; the rest of a longer one is dropped.
const MAX_LINE: u64 = 1 << 20;

/// The next line of `input` without its end, or `None` at the end of input (or a read
/// error, which ends the session as the end of input does).
pub fn next_line(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    match (&mut *input).take(MAX_LINE).read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => return None,
        Ok(_) => {}
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() as u64 == MAX_LINE {
        // Too long: the rest of it goes unread into nothing, and the session sees a line
        // it does not know.
        let mut rest = Vec::new();
        while let Ok(n) = (&mut *input).take(MAX_LINE).read_until(b'\n', &mut rest) {
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
            rest.clear();
        }
        return Some("(a line longer than 1 MiB)".to_string());
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::next_line;

    #[test]
    fn lines_are_text_and_bounded() {
        let mut input: &[u8] = b"ping 1\r\n\xff\xfe go\nlast";
        assert_eq!(next_line(&mut input).as_deref(), Some("ping 1"));
        assert_eq!(
            next_line(&mut input).as_deref(),
            Some("\u{fffd}\u{fffd} go")
        );
        assert_eq!(next_line(&mut input).as_deref(), Some("last"));
        assert_eq!(next_line(&mut input), None);
        let long = [vec![b'x'; 3 << 20], b"\nping 2\n".to_vec()].concat();
        let mut input: &[u8] = &long;
        assert_eq!(
            next_line(&mut input).as_deref(),
            Some("(a line longer than 1 MiB)")
        );
        assert_eq!(next_line(&mut input).as_deref(), Some("ping 2"));
    }
}

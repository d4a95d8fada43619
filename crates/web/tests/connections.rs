//! The server's connections over a real socket: idle and slow clients are closed, and a
//! flood of silent connections never keeps a real request out. Each test waits for what
//! the server does (a close, an answer); the read timeouts only bound a hang.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

use gamelab_web::{Config, ConnectionLimits};

/// Starts a server with `limits` on a free port, in a thread of its own.
fn server(limits: ConnectionLimits) -> SocketAddr {
    let (ready, address) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async move {
            let config = Config {
                port: 0,
                connections: limits,
                ..Default::default()
            };
            gamelab_web::serve(config, |addr| ready.send(addr).unwrap())
                .await
                .unwrap();
        });
    });
    address.recv().unwrap()
}

fn connect(addr: SocketAddr) -> TcpStream {
    let stream = TcpStream::connect(addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream
}

/// Everything the server sends until it closes the connection.
fn read_until_closed(stream: &mut TcpStream) -> String {
    let mut text = Vec::new();
    stream
        .read_to_end(&mut text)
        .expect("the server did not close the connection");
    String::from_utf8_lossy(&text).into_owned()
}

fn get(addr: SocketAddr, path: &str) -> String {
    let mut stream = connect(addr);
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    read_until_closed(&mut stream)
}

#[test]
fn idle_and_slow_headers_are_closed_at_the_header_timeout() {
    let addr = server(ConnectionLimits {
        header_timeout: Duration::from_millis(300),
        ..Default::default()
    });
    // A connection that never says anything.
    let mut silent = connect(addr);
    assert_eq!(read_until_closed(&mut silent), "");
    // Headers a byte at a time, never finished.
    let mut slow = connect(addr);
    slow.write_all(b"GET /api/catalogue HTTP/1.1\r\nHo")
        .unwrap();
    read_until_closed(&mut slow);
    // A keep-alive connection after its answer.
    let mut kept = connect(addr);
    write!(kept, "GET /api/catalogue HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let text = read_until_closed(&mut kept);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
}

#[test]
fn a_body_that_trickles_fails_its_request() {
    let addr = server(ConnectionLimits {
        body_timeout: Duration::from_millis(300),
        ..Default::default()
    });
    let mut stream = connect(addr);
    write!(
        stream,
        "POST /api/games HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 40\r\n\r\n{{\"game\""
    )
    .unwrap();
    let mut answer = [0u8; 4096];
    let n = stream.read(&mut answer).expect("no answer to a slow body");
    let text = String::from_utf8_lossy(&answer[..n]);
    assert!(text.starts_with("HTTP/1.1 400"), "{text}");
    assert!(
        text.contains("the request's body did not come whole within 0.3 s"),
        "{text}"
    );
}

#[test]
fn silent_connections_make_room_for_a_real_request() {
    let addr = server(ConnectionLimits {
        header_timeout: Duration::from_secs(3600),
        max_connections: 4,
        ..Default::default()
    });
    let mut silent: Vec<TcpStream> = (0..4).map(|_| connect(addr)).collect();
    // One more connection, with a request: the oldest silent one is closed to make room.
    let text = get(addr, "/api/catalogue");
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert_eq!(read_until_closed(&mut silent[0]), "");
    // The others were kept: each answers a request.
    for stream in &mut silent[1..] {
        write!(
            stream,
            "GET /api/catalogue HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        assert!(read_until_closed(stream).starts_with("HTTP/1.1 200"));
    }
}

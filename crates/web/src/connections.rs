//! The server's connections: accepted, served over HTTP/1.1 (hyper), and bounded, so that
//! idle, slow or too many clients cannot take the server from the others.
//!
//! - A request's headers must come within [`ConnectionLimits::header_timeout`] of the
//!   connection opening or of the previous response (hyper's header read timeout): an idle
//!   keep-alive connection, or a client that sends its headers a byte at a time
//!   (slowloris), is closed then.
//! - A request's body must come whole within [`ConnectionLimits::body_timeout`] of its
//!   headers; a body that trickles in fails the request.
//! - At most [`ConnectionLimits::max_connections`] connections are kept. A new one past
//!   that closes the connection idle the longest (none in a request: a client that never
//!   sent its headers, or a keep-alive connection between requests); if every one is in a
//!   request, the new one is closed. So a flood of silent connections never keeps a real
//!   request out, and file descriptors stay well under a process's usual limit of 1,024.

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes, HttpBody};
use http_body::{Frame, SizeHint};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::Notify;
use tokio::time::Instant;
use tower::ServiceExt;

/// How long clients may take, and how many may be connected.
#[derive(Clone, Copy, Debug)]
pub struct ConnectionLimits {
    /// The longest a connection may wait before sending a request's headers whole.
    pub header_timeout: Duration,
    /// The longest a request's body may take to arrive once its headers have.
    pub body_timeout: Duration,
    /// The most connections kept at once.
    pub max_connections: usize,
}

impl Default for ConnectionLimits {
    fn default() -> Self {
        ConnectionLimits {
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            max_connections: 512,
        }
    }
}

/// One accepted connection as the accept loop sees it.
struct Connection {
    /// Requests being answered on it (a streamed response counts until its end).
    in_requests: AtomicUsize,
    /// Since when it has had no request.
    idle_since: Mutex<Instant>,
    /// Closes it.
    close: Notify,
}

/// Every connection kept, by an id of its own.
#[derive(Default)]
struct Connections {
    live: Mutex<HashMap<u64, Arc<Connection>>>,
    next_id: AtomicU64,
}

impl Connections {
    /// Makes room for one more connection under `max`: the idle one idle the longest is
    /// closed. `false` if every connection is in a request.
    fn make_room(&self, max: usize) -> bool {
        let mut live = self.live.lock().unwrap_or_else(|e| e.into_inner());
        if live.len() < max {
            return true;
        }
        let oldest_idle = live
            .iter()
            .filter(|(_, c)| c.in_requests.load(Ordering::SeqCst) == 0)
            .min_by_key(|(_, c)| *c.idle_since.lock().unwrap_or_else(|e| e.into_inner()))
            .map(|(&id, _)| id);
        match oldest_idle.and_then(|id| live.remove(&id)) {
            Some(connection) => {
                // A permit is kept if its task is not waiting yet: it closes at once.
                connection.close.notify_one();
                true
            }
            None => false,
        }
    }

    fn add(&self) -> (u64, Arc<Connection>) {
        let connection = Arc::new(Connection {
            in_requests: AtomicUsize::new(0),
            idle_since: Mutex::new(Instant::now()),
            close: Notify::new(),
        });
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(id, connection.clone());
        (id, connection)
    }

    fn remove(&self, id: u64) {
        self.live
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&id);
    }
}

/// Marks a connection in a request while it lives (until the response's body has been
/// sent, or dropped).
struct InRequest(Arc<Connection>);

impl InRequest {
    fn start(connection: &Arc<Connection>) -> InRequest {
        connection.in_requests.fetch_add(1, Ordering::SeqCst);
        InRequest(connection.clone())
    }
}

impl Drop for InRequest {
    fn drop(&mut self) {
        *self.0.idle_since.lock().unwrap_or_else(|e| e.into_inner()) = Instant::now();
        self.0.in_requests.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Serves `app` on `listener` until the process ends, within `limits`.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnectionLimits,
) -> std::io::Result<()> {
    let connections = Arc::new(Connections::default());
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(_) => {
                // Out of file descriptors (or a connection reset before it was taken):
                // an idle connection gives its descriptor back, and the loop goes on.
                connections.make_room(0);
                tokio::time::sleep(Duration::from_millis(20)).await;
                continue;
            }
        };
        if !connections.make_room(limits.max_connections) {
            // Every connection is in a request: this one is closed unserved.
            continue;
        }
        let (id, connection) = connections.add();
        let (app, connections) = (app.clone(), connections.clone());
        tokio::spawn(async move {
            let in_connection = connection.clone();
            let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
                let in_request = InRequest::start(&in_connection);
                let request = request.map(|body| {
                    Body::new(WithinDeadline {
                        inner: body,
                        deadline: Box::pin(tokio::time::sleep(limits.body_timeout)),
                        seconds: limits.body_timeout.as_secs_f64(),
                    })
                });
                let app = app.clone();
                async move {
                    let response = app.oneshot(request).await?;
                    // The connection is in the request until the body has gone out.
                    Ok::<_, Infallible>(response.map(|body| {
                        Body::new(body.map_frame(move |frame| {
                            let _in_request = &in_request;
                            frame
                        }))
                    }))
                }
            });
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(limits.header_timeout);
            let serving = http.serve_connection(TokioIo::new(stream), service);
            tokio::select! {
                _ = serving => {}
                _ = connection.close.notified() => {}
            }
            connections.remove(id);
        });
    }
}

/// A request's body that fails once its deadline has passed.
struct WithinDeadline {
    inner: Incoming,
    deadline: Pin<Box<tokio::time::Sleep>>,
    seconds: f64,
}

impl HttpBody for WithinDeadline {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(axum::Error::new)));
        }
        if self.deadline.as_mut().poll(cx).is_ready() {
            let message = format!(
                "the request's body did not come whole within {} s",
                self.seconds
            );
            return Poll::Ready(Some(Err(axum::Error::new(message))));
        }
        Poll::Pending
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

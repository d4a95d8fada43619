//! Request bodies of the web API: any bytes to each endpoint that takes a body get an
//! answer (never a panic or a 500). Runs are left out: a valid one would start playing.

use std::sync::OnceLock;

use axum::body::Body;
use axum::http::{Request, header};
use tower::ServiceExt;

struct Fixture {
    runtime: tokio::runtime::Runtime,
    app: axum::Router,
    game: String,
}

fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let app = gamelab_web::router(gamelab_web::Config::default());
        let (_, body) = runtime.block_on(send(
            &app,
            "/api/games",
            br#"{"game":"ttt","players":["human","human"]}"#.to_vec(),
        ));
        let id: serde_json::Value = serde_json::from_slice(&body).unwrap();
        let game = id["id"].as_str().unwrap().to_string();
        Fixture { runtime, app, game }
    })
}

async fn send(app: &axum::Router, path: &str, body: Vec<u8>) -> (u16, Vec<u8>) {
    let request = Request::post(path)
        .header(header::HOST, "127.0.0.1:8080")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    let response = app.clone().oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 20)
        .await
        .unwrap();
    (status, bytes.to_vec())
}

pub fn check(data: &[u8]) {
    let f = fixture();
    let game = &f.game;
    for path in [
        "/api/games".to_string(),
        format!("/api/games/{game}/move"),
        format!("/api/games/{game}/seek"),
        format!("/api/games/{game}/ai-move"),
        "/api/explore".to_string(),
    ] {
        let (status, _) = f.runtime.block_on(send(&f.app, &path, data.to_vec()));
        assert!(status < 500, "{path} answered {status}");
    }
}

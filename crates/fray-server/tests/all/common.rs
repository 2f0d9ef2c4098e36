//! A server on 127.0.0.1 port 0 with Kazzam and Draw Steel, and small HTTP and WebSocket
//! clients for the tests.

use fray_server::store::SqliteStore;
use fray_server::{Catalog, Limits, Server, Systems};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;

/// The systems as `fray serve` offers them (crates/fray's `systems()`, without its content
/// folder switch).
pub fn systems() -> Systems {
    let kazzam = Arc::new(fray_kazzam::Kazzam::with_content(Arc::new(fray_kazzam::Content::builtin())));
    let drawsteel = Arc::new(fray_drawsteel::game::DrawSteel::builtin());
    let names = |list: &[(&'static str, &'static str)]| list.iter().map(|(id, _)| *id).collect::<Vec<_>>();
    Systems {
        registry: fray_core::table::Registry::new()
            .with(fray_kazzam::engine::game::system_of(kazzam.clone()))
            .with(fray_drawsteel::game::system_of(drawsteel.clone())),
        bots: vec![Arc::new(fray_ai::BotsOf::new(&*kazzam)), Arc::new(fray_ai::BotsOf::new(&*drawsteel))],
        catalog: vec![
            Catalog {
                system: "kazzam",
                teams: names(fray_kazzam::content::teams::BUILTIN),
                maps: names(fray_kazzam::content::maps::BUILTIN),
            },
            Catalog { system: "drawsteel", teams: Vec::new(), maps: names(fray_drawsteel::setup::ENCOUNTERS) },
        ],
    }
}

/// A server on a free loopback port over the store in `dir`; dropping the handle stops it.
pub struct Running {
    pub addr: SocketAddr,
    pub server: Server,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Drop for Running {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The per-address request rate is lifted: these clients are scripts on 127.0.0.1 that ask as
/// fast as the server answers (the rate has its own test).
pub async fn start(dir: &std::path::Path) -> Running {
    start_with(dir, Limits { http_per_second: 1_000_000, http_burst: 1_000_000, ..Limits::default() }).await
}

/// A server as [`start`] makes, with these limits.
pub async fn start_with(dir: &std::path::Path, limits: Limits) -> Running {
    let store = SqliteStore::open(&dir.join("fray.sqlite")).unwrap();
    let server = Server::open(systems(), Arc::new(store), limits).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let task = tokio::spawn(server.clone().serve(listener));
    Running { addr, server, task }
}

/// One HTTP/1.1 request; the status and the body as JSON (or as a string if not JSON).
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
    let body = body.unwrap_or("");
    let req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out).await;
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status: u16 = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let json = serde_json::from_str(body).unwrap_or(Value::String(body.to_string()));
    (status, json)
}

pub async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    http(addr, "GET", path, None).await
}

pub async fn post(addr: SocketAddr, path: &str, body: &str) -> (u16, Value) {
    http(addr, "POST", path, Some(body)).await
}

pub type Socket = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

pub async fn socket(addr: SocketAddr, token: &str) -> Socket {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/play/{token}/ws")).await.unwrap();
    ws
}

/// The next text message as JSON, or `None` if the socket closed or nothing came in `secs`.
pub async fn next(ws: &mut Socket, secs: u64) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(secs), ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(&t).ok(),
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) | Err(_) => return None,
            Ok(Some(Ok(_))) => continue,
        }
    }
}

/// Messages until one whose version is at least `version` (an update), or `None`.
pub async fn until_version(ws: &mut Socket, version: u64, secs: u64) -> Option<Value> {
    loop {
        let m = next(ws, secs).await?;
        if m["type"] == "update" && m["version"].as_u64().unwrap_or(0) >= version {
            return Some(m);
        }
    }
}

pub async fn send(ws: &mut Socket, text: &str) {
    ws.send(Message::Text(text.to_string().into())).await.unwrap();
}

/// Waits until the seat of `token` is asked something (the bots move on the server).
pub async fn wait_turn(addr: SocketAddr, token: &str, secs: u64) -> Value {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (code, v) = get(addr, &format!("/api/play/{token}")).await;
        assert_eq!(code, 200, "{v}");
        if v["waiting"] == v["you"]["name"] || !v["view"]["outcome"].is_null() {
            return v;
        }
        assert!(std::time::Instant::now() < end, "the seat was never asked: {}", v["waiting"]);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The first option of the decision in a message, preferring one that is not "end-turn" or
/// "back" (so the match moves on).
pub fn pick(m: &Value) -> String {
    let opts = m["view"]["decision"]["options"].as_array().cloned().unwrap_or_default();
    let ids: Vec<String> = opts.iter().filter_map(|o| o["id"].as_str().map(String::from)).collect();
    ids.iter().find(|id| *id != "back").cloned().or_else(|| ids.first().cloned()).expect("a decision with options")
}

/// Waits until a person is asked (not a bot) or the match is over; the message for `token`.
pub async fn wait_people(addr: SocketAddr, token: &str, secs: u64) -> Value {
    let end = std::time::Instant::now() + Duration::from_secs(secs);
    loop {
        let (code, v) = get(addr, &format!("/api/play/{token}")).await;
        assert_eq!(code, 200, "{v}");
        let person = v["seats"].as_array().unwrap().iter().any(|s| s["name"] == v["waiting"] && s["kind"] == "person");
        if person || !v["view"]["outcome"].is_null() {
            return v;
        }
        assert!(std::time::Instant::now() < end, "no person was ever asked: {}", v["waiting"]);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

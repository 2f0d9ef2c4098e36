//! `fray serve`: matches of any system in the [`Registry`] played in a browser. People join a
//! seat by its secret link, spectators by theirs, bots answer on the server, and every input is
//! committed to a [`store::Store`] before anyone is told of it.
//!
//! The HTTP API (JSON; every error is `{"error": "..."}` with a 4xx or 5xx status):
//!
//! - `GET /api/systems`: the systems, their seats, table options, built-in teams and maps.
//! - `POST /api/matches`: `{"system", "map"?, "teams"?, "options"?, "seats"?, "seed"?}` where a
//!   map or team is a built-in name or `{"path"?, "text"}` (an uploaded file) and `seats` lists,
//!   per seat, `{"kind": "person"}` or `{"kind": "bot", "bot": "greedy"}`. Answers with the
//!   match id, one secret token and link per person seat, and the spectators' token and link.
//! - `GET /api/play/{token}`: the match as that token's seat (or a spectator) sees it: its view,
//!   the log lines of the last change and the dice rolled in it (`rolls`, [`hub::rolls_of`]).
//! - `POST /api/play/{token}`: `{"choose": "OPTION-ID"}` answers that seat's decision.
//! - `GET /api/play/{token}/ws`: a WebSocket that gets the same message after every change (and
//!   takes `{"choose": ...}` too).
//! - `GET /api/play/{token}/step/{k}`: the match as it stood after its first k inputs.
//! - `POST /api/play/{token}/undo`: takes back that seat's last choice, while nobody has acted
//!   since and no die was rolled by it (the message's `can_undo` says when).
//! - `GET /api/rules/{system}`: the look-up entries.
//!
//! A client past its [`Limits`] (requests a second per address, WebSockets a seat, messages a
//! second on a socket) gets 429 or has its socket closed.
//!
//! Nothing here names a game: the systems come from the caller ([`Systems`]).

pub mod hub;
pub mod store;

use axum::Router;
use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use fray_core::table::{Registry, SetupRequest, TeamText};
use futures_util::{SinkExt, StreamExt};
use hub::{Hub, NewMatch, Refusal, Role};
use serde::Deserialize;
use serde_json::{Value, json};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a server offers: the systems, their bots, and the names of their built-in teams and
/// maps (for the lobby's lists).
pub struct Systems {
    /// The systems.
    pub registry: Registry,
    /// Their bots.
    pub bots: Vec<Arc<dyn fray_ai::Bots>>,
    /// Built-in team and map names by system.
    pub catalog: Vec<Catalog>,
}

/// The built-in teams and maps of one system, by name.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    /// The system's id.
    pub system: &'static str,
    /// Built-in teams ([`fray_core::table::System::builtin_team`] knows each).
    pub teams: Vec<&'static str>,
    /// Built-in maps ([`fray_core::table::System::builtin_map`] knows each).
    pub maps: Vec<&'static str>,
}

/// Limits on what a client may send.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest HTTP request body (uploaded team and map files included).
    pub body_bytes: usize,
    /// Largest WebSocket message.
    pub ws_message_bytes: usize,
    /// Messages a WebSocket client may send in one second before it is cut off.
    pub ws_messages_per_second: u32,
    /// WebSockets open at once on one match for each seat (its person's tabs), and for its
    /// spectators together.
    pub ws_per_seat: usize,
    /// WebSockets open at once on one match for its spectators together.
    pub ws_spectators: usize,
    /// HTTP requests one client address may make per second, on average...
    pub http_per_second: u32,
    /// ...and in one burst; beyond that it is answered 429 until its allowance refills.
    pub http_burst: u32,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 256 * 1024,
            ws_message_bytes: 4096,
            ws_messages_per_second: 20,
            ws_per_seat: 8,
            ws_spectators: 64,
            http_per_second: 100,
            http_burst: 300,
        }
    }
}

/// The HTTP allowance of each client address: a bucket of `http_burst` requests that refills
/// at `http_per_second`.
#[derive(Default)]
struct RequestRates {
    buckets: std::sync::Mutex<std::collections::HashMap<std::net::IpAddr, (f64, Instant)>>,
}

impl RequestRates {
    /// Whether `ip` may make one more request now (and counts it if so).
    fn allow(&self, ip: std::net::IpAddr, limits: &Limits) -> bool {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() > 4096 {
            // Forget the addresses that have been quiet long enough to be full again.
            let refill = Duration::from_secs_f64(limits.http_burst as f64 / limits.http_per_second.max(1) as f64);
            buckets.retain(|_, (_, last)| now.duration_since(*last) < refill);
        }
        let burst = limits.http_burst.max(1) as f64;
        let (left, last) = buckets.entry(ip).or_insert((burst, now));
        *left = (*left + now.duration_since(*last).as_secs_f64() * limits.http_per_second as f64).min(burst);
        *last = now;
        if *left < 1.0 {
            return false;
        }
        *left -= 1.0;
        true
    }
}

/// The server: its matches and its limits.
#[derive(Clone)]
pub struct Server {
    hub: Arc<Hub>,
    limits: Limits,
    rates: Arc<RequestRates>,
}

/// The browser app, built from web/ (`npm --prefix web run build`) and kept in the repository,
/// so the binary serves it with no build step of its own.
mod assets {
    pub const INDEX: &str = include_str!("../assets/index.html");
    pub const APP: &str = include_str!("../assets/app.js");
    pub const STYLE: &str = include_str!("../assets/style.css");
}

impl Server {
    /// A server over `store`; every unfinished match in it is held again.
    pub fn open(systems: Systems, store: Arc<dyn store::Store>, limits: Limits) -> Result<Server, String> {
        Ok(Server { hub: Hub::open(systems, store)?, limits, rates: Arc::default() })
    }

    /// The match hub (for tests and the load test).
    pub fn hub(&self) -> &Arc<Hub> {
        &self.hub
    }

    /// The routes.
    pub fn router(&self) -> Router {
        Router::new()
            .route("/", get(|| async { page(assets::INDEX) }))
            .route("/play/{token}", get(|| async { page(assets::INDEX) }))
            .route(
                "/app.js",
                get(|| async { ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8")], assets::APP) }),
            )
            .route("/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css; charset=utf-8")], assets::STYLE) }))
            .route("/api/systems", get(systems))
            .route("/api/matches", axum::routing::post(create))
            .route("/api/play/{token}", get(view).post(answer))
            .route("/api/play/{token}/ws", get(socket))
            .route("/api/play/{token}/step/{step}", get(step))
            .route("/api/play/{token}/undo", axum::routing::post(undo))
            .route("/api/rules/{system}", get(rules))
            .fallback(|| async { refuse(Refusal::new(404, "no such page")) })
            .layer(DefaultBodyLimit::max(self.limits.body_bytes))
            .layer(axum::middleware::from_fn_with_state(self.clone(), rate_limit))
            .with_state(self.clone())
    }

    /// Serves on `listener` until the process ends, after starting the bots of every match
    /// that waits on one.
    pub async fn serve(self, listener: tokio::net::TcpListener) -> std::io::Result<()> {
        for m in self.hub.waiting_on_bots() {
            let hub = self.hub.clone();
            tokio::task::spawn_blocking(move || hub.run_bots(&m));
        }
        axum::serve(listener, self.router().into_make_service_with_connect_info::<std::net::SocketAddr>()).await
    }
}

/// Answers 429 to a client address past its HTTP allowance ([`Limits::http_per_second`]).
/// A router served without the peer's address (in-process tests) is not limited.
async fn rate_limit(State(s): State<Server>, req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let peer = req.extensions().get::<axum::extract::ConnectInfo<std::net::SocketAddr>>().map(|c| c.0.ip());
    if let Some(ip) = peer
        && !s.rates.allow(ip, &s.limits)
    {
        let mut r = refuse(Refusal::new(429, "too many requests: wait a moment and try again"));
        r.headers_mut().insert(header::RETRY_AFTER, header::HeaderValue::from_static("1"));
        return r;
    }
    next.run(req).await
}

fn page(html: &'static str) -> Response {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-store")], html).into_response()
}

fn refuse(r: Refusal) -> Response {
    let status = StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    (status, axum::Json(json!({"error": r.message}))).into_response()
}

fn json_text(text: Arc<str>) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text.to_string()).into_response()
}

/// Runs blocking work (the engine, a bot, the store) off the async runtime.
async fn blocking<T: Send + 'static>(f: impl FnOnce() -> Result<T, Refusal> + Send + 'static) -> Result<T, Refusal> {
    tokio::task::spawn_blocking(f).await.unwrap_or_else(|e| Err(Refusal::new(500, format!("the server failed: {e}"))))
}

/// Reads a JSON body, refusing with the reason when it does not read.
fn body<T: serde::de::DeserializeOwned>(bytes: &[u8]) -> Result<T, Refusal> {
    serde_json::from_slice(bytes)
        .map_err(|e| Refusal::new(400, format!("the request is not what this call takes: {e}")))
}

async fn systems(State(s): State<Server>) -> Response {
    let sys = s.hub.systems();
    let list: Vec<Value> = sys
        .registry
        .all()
        .iter()
        .map(|x| {
            let cat = sys.catalog.iter().find(|c| c.system == x.id()).cloned().unwrap_or_default();
            json!({
                "id": x.id(),
                "title": x.title(),
                "playable": x.playable().err(),
                "seats": x.seat_names(),
                "options": x.table_options().iter().map(|(k, v)| json!({"option": k, "what": v})).collect::<Vec<_>>(),
                "teams": cat.teams.iter().filter(|t| x.builtin_team(t).is_some()).collect::<Vec<_>>(),
                "maps": cat.maps.iter().filter(|m| x.builtin_map(m).is_some()).collect::<Vec<_>>(),
                "bots": sys.bots.iter().any(|b| b.system() == x.id()),
            })
        })
        .collect();
    axum::Json(json!({"systems": list, "bots": ["random", "greedy", "mcts", "mcts:500"]})).into_response()
}

/// A built-in team or map by name, or an uploaded file.
#[derive(Deserialize)]
#[serde(untagged)]
enum Named {
    Builtin(String),
    File {
        #[serde(default)]
        path: Option<String>,
        text: String,
    },
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
enum SeatRequest {
    Person,
    Bot {
        #[serde(default)]
        bot: Option<String>,
    },
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    system: String,
    #[serde(default)]
    map: Option<Named>,
    #[serde(default)]
    teams: Vec<Named>,
    #[serde(default)]
    options: Vec<String>,
    #[serde(default)]
    seats: Vec<SeatRequest>,
    #[serde(default)]
    seed: Option<u64>,
}

async fn create(State(s): State<Server>, bytes: Bytes) -> Response {
    let r: CreateRequest = match body(&bytes) {
        Ok(r) => r,
        Err(e) => return refuse(e),
    };
    let hub = s.hub.clone();
    let made = blocking(move || {
        let sys = hub.systems().registry.get(&r.system).map_err(|e| Refusal::new(400, e))?.clone();
        let read = |n: Named, what: &str, builtin: &dyn Fn(&str) -> Option<&'static str>| match n {
            Named::Builtin(name) => builtin(&name)
                .map(|text| TeamText { path: name.clone(), text: text.to_string() })
                .ok_or_else(|| Refusal::new(400, format!("{} has no built-in {what} {name:?}", sys.title()))),
            Named::File { path, text } => {
                Ok(TeamText { path: path.unwrap_or_else(|| format!("uploaded {what}")), text })
            }
        };
        let teams =
            r.teams.into_iter().map(|t| read(t, "team", &|n| sys.builtin_team(n))).collect::<Result<Vec<_>, _>>()?;
        let map = r.map.map(|m| read(m, "map", &|n| sys.builtin_map(n))).transpose()?;
        let players = r
            .seats
            .into_iter()
            .map(|p| match p {
                SeatRequest::Person => None,
                SeatRequest::Bot { bot } => Some(bot.unwrap_or_else(|| "greedy".into())),
            })
            .collect();
        let seed = r.seed.unwrap_or_else(rand::random);
        let (m, stored) = hub.create(NewMatch {
            system: r.system,
            request: SetupRequest { teams, options: r.options, map },
            seed,
            players,
        })?;
        let hub2 = hub.clone();
        let m2 = m.clone();
        tokio::task::spawn_blocking(move || hub2.run_bots(&m2));
        Ok(stored)
    })
    .await;
    match made {
        Err(e) => refuse(e),
        Ok(m) => {
            let seats: Vec<Value> = m
                .seats
                .iter()
                .map(|seat| match &seat.player {
                    store::SeatPlayer::Person { token } => {
                        json!({"name": seat.name, "kind": "person", "token": token, "link": format!("/play/{token}")})
                    }
                    store::SeatPlayer::Bot { bot } => json!({"name": seat.name, "kind": "bot", "bot": bot}),
                })
                .collect();
            (
                StatusCode::CREATED,
                axum::Json(json!({
                    "match": m.id,
                    "system": m.system,
                    "seed": m.seed,
                    "seats": seats,
                    "spectator": {"token": m.spectator, "link": format!("/play/{}", m.spectator)},
                })),
            )
                .into_response()
        }
    }
}

async fn view(State(s): State<Server>, Path(token): Path<String>) -> Response {
    let hub = s.hub.clone();
    match blocking(move || hub.enter(&token)).await {
        Ok((m, role)) => json_text(m.latest().message(role)),
        Err(e) => refuse(e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Answer {
    choose: String,
}

async fn answer(State(s): State<Server>, Path(token): Path<String>, bytes: Bytes) -> Response {
    let a: Answer = match body(&bytes) {
        Ok(a) => a,
        Err(e) => return refuse(e),
    };
    match take_answer(&s.hub, token, a.choose).await {
        Ok(text) => json_text(text),
        Err(e) => refuse(e),
    }
}

/// Answers for the seat `token` opens, then lets the bots move; returns the seat's new message.
async fn take_answer(hub: &Arc<Hub>, token: String, choose: String) -> Result<Arc<str>, Refusal> {
    let hub = hub.clone();
    blocking(move || {
        let (m, role) = hub.enter(&token)?;
        let snap = hub.answer(&m, role, &choose)?;
        let hub2 = hub.clone();
        let m2 = m.clone();
        // The bots move on their own thread, so the answer is acknowledged at once.
        tokio::task::spawn_blocking(move || hub2.run_bots(&m2));
        Ok(snap.message(role))
    })
    .await
}

async fn undo(State(s): State<Server>, Path(token): Path<String>) -> Response {
    let hub = s.hub.clone();
    match blocking(move || {
        let (m, role) = hub.enter(&token)?;
        hub.undo(&m, role).map(|snap| snap.message(role))
    })
    .await
    {
        Ok(text) => json_text(text),
        Err(e) => refuse(e),
    }
}

async fn step(State(s): State<Server>, Path((token, step)): Path<(String, usize)>) -> Response {
    let hub = s.hub.clone();
    match blocking(move || {
        let (m, role) = hub.enter(&token)?;
        hub.replay(&m, role, step)
    })
    .await
    {
        Ok(text) => json_text(text.into()),
        Err(e) => refuse(e),
    }
}

async fn rules(State(s): State<Server>, Path(system): Path<String>) -> Response {
    let hub = s.hub.clone();
    match blocking(move || hub.rules(&system)).await {
        Ok(v) => axum::Json(json!({"entries": *v})).into_response(),
        Err(e) => refuse(e),
    }
}

async fn socket(State(s): State<Server>, Path(token): Path<String>, ws: WebSocketUpgrade) -> Response {
    let hub = s.hub.clone();
    let (m, role, token) = match blocking(move || hub.enter(&token).map(|(m, r)| (m, r, token))).await {
        Ok(entered) => entered,
        Err(e) => return refuse(e),
    };
    let limits = s.limits;
    // The match's sockets are counted while they are open; past the cap a new one is refused.
    let (cap, whose) = match role {
        Role::Seat(_) => (limits.ws_per_seat, "this seat"),
        Role::Spectator => (limits.ws_spectators, "this match's spectators"),
    };
    let Some(slot) = m.open_socket(role, cap) else {
        return refuse(Refusal::new(
            429,
            format!("{whose} already have {cap} connections open, the most allowed: close a tab first"),
        ));
    };
    let hub = s.hub.clone();
    ws.max_message_size(limits.ws_message_bytes).max_frame_size(limits.ws_message_bytes).on_upgrade(
        move |socket| async move {
            client(socket, hub, m, role, token, limits).await;
            drop(slot);
        },
    )
}

fn error_message(e: &Refusal) -> Message {
    Message::Text(json!({"type": "error", "status": e.status, "error": e.message}).to_string().into())
}

/// One WebSocket: sends the match as `role` sees it after every change; takes answers.
async fn client(socket: WebSocket, hub: Arc<Hub>, m: Arc<hub::Match>, role: Role, token: String, limits: Limits) {
    let (mut tx, mut rx) = socket.split();
    let mut updates = m.subscribe();
    let first = m.latest();
    let mut sent = first.revision;
    if tx.send(Message::Text(first.message(role).to_string().into())).await.is_err() {
        return;
    }
    let (mut window, mut count) = (Instant::now(), 0u32);
    loop {
        tokio::select! {
            u = updates.recv() => {
                let snap = match u {
                    Ok(snap) => snap,
                    // Too far behind: the latest view (it carries the recent log) catches up.
                    Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => m.latest(),
                    Err(tokio::sync::broadcast::error::RecvError::Closed) => break,
                };
                if snap.revision <= sent {
                    continue;
                }
                sent = snap.revision;
                if tx.send(Message::Text(snap.message(role).to_string().into())).await.is_err() {
                    break;
                }
            }
            msg = rx.next() => {
                let Some(Ok(msg)) = msg else { break };
                if window.elapsed() >= Duration::from_secs(1) {
                    (window, count) = (Instant::now(), 0);
                }
                count += 1;
                if count > limits.ws_messages_per_second {
                    let _ = tx.send(Message::Close(Some(CloseFrame {
                        code: 1008,
                        reason: "too many messages: this connection is closed".into(),
                    }))).await;
                    break;
                }
                let reply = match msg {
                    Message::Text(text) => match serde_json::from_str::<Answer>(&text) {
                        Err(e) => Some(error_message(&Refusal::new(400, format!("not an answer ({{\"choose\": \"ID\"}}): {e}")))),
                        Ok(a) => match take_answer(&hub, token.clone(), a.choose).await {
                            Ok(_) => Some(Message::Text(json!({"type": "ack"}).to_string().into())),
                            Err(e) => Some(error_message(&e)),
                        },
                    },
                    Message::Binary(_) => Some(error_message(&Refusal::new(400, "send text messages (JSON)"))),
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => None,
                };
                if let Some(r) = reply
                    && tx.send(r).await.is_err()
                {
                    break;
                }
            }
        }
    }
}

/// `fray serve`: opens the store in `data`, binds `addr`, prints the address to open and
/// serves until the process is stopped.
pub fn run(systems: Systems, addr: &str, data: &std::path::Path) -> Result<(), String> {
    let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(|e| e.to_string())?;
    rt.block_on(async {
        let store = store::SqliteStore::open(&data.join("fray.sqlite"))?;
        let server = Server::open(systems, Arc::new(store), Limits::default())?;
        let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("--addr {addr}: {e}"))?;
        let at = listener.local_addr().map_err(|e| e.to_string())?;
        println!("Fray is serving at http://{at}/ (open it in a browser; matches are kept in {})", data.display());
        println!("holding {} unfinished matches", server.hub().held());
        use std::io::Write;
        let _ = std::io::stdout().flush();
        server.serve(listener).await.map_err(|e| e.to_string())
    })
}

//! The server over real sockets on 127.0.0.1: HTTP and WebSocket clients play Kazzam and Draw
//! Steel matches, try what they may not, and read only what their seat may see.

use crate::common::*;
use fray_core::game::{Seat, Viewer};
use fray_server::hub::rolls_of;
use serde_json::{Value, json};

fn kazzam_two_people() -> String {
    json!({"system": "kazzam", "seed": 11, "seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "bot", "bot": "greedy"}]})
        .to_string()
}

/// The token of seat `i` in a create answer.
fn token(created: &Value, i: usize) -> String {
    created["seats"][i]["token"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kazzam_two_seats_play_over_http_and_websocket_and_neither_acts_for_the_other() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let (code, created) = post(s.addr, "/api/matches", &kazzam_two_people()).await;
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["seats"][2]["kind"], "bot");
    let (red, blue, watch) =
        (token(&created, 0), token(&created, 1), created["spectator"]["token"].as_str().unwrap().to_string());
    let mut red_ws = socket(s.addr, &red).await;
    let mut blue_ws = socket(s.addr, &blue).await;
    let mut watch_ws = socket(s.addr, &watch).await;
    let first = next(&mut blue_ws, 5).await.unwrap();
    assert_eq!(first["you"]["name"], "blue");
    next(&mut red_ws, 5).await.unwrap();
    next(&mut watch_ws, 5).await.unwrap();

    let mut played = 0;
    let mut refused_for_other = 0;
    for _ in 0..12 {
        // Whoever is asked answers; the other seat tries the same answer first and is refused.
        let r = wait_people(s.addr, &red, 30).await;
        if !r["view"]["outcome"].is_null() {
            break;
        }
        let (me, other) = if r["waiting"] == "red" { (&red, &blue) } else { (&blue, &red) };
        let now = get(s.addr, &format!("/api/play/{me}")).await.1;
        if now["waiting"] != now["you"]["name"] {
            continue;
        }
        let version = now["version"].as_u64().unwrap();
        let choice = pick(&now);
        let (code, e) = post(s.addr, &format!("/api/play/{other}"), &json!({"choose": choice}).to_string()).await;
        assert_eq!(code, 409, "{e}");
        assert!(e["error"].as_str().unwrap().contains("is not asked anything now"), "{e}");
        let (code, e) = post(s.addr, &format!("/api/play/{watch}"), &json!({"choose": choice}).to_string()).await;
        assert_eq!(code, 403, "{e}");
        refused_for_other += 1;
        assert_eq!(get(s.addr, &format!("/api/play/{me}")).await.1["version"], version, "a refusal changed the match");

        let (code, after) = post(s.addr, &format!("/api/play/{me}"), &json!({"choose": choice}).to_string()).await;
        assert_eq!(code, 200, "{after}");
        assert!(after["version"].as_u64().unwrap() > version);
        played += 1;
        // Both seats' sockets and the spectator's hear of it, each with its own view.
        for (ws, name) in [(&mut red_ws, "red"), (&mut blue_ws, "blue"), (&mut watch_ws, "spectator")] {
            let u = until_version(ws, version + 1, 10).await.expect("an update on every socket");
            assert_eq!(u["you"]["name"], name);
        }
    }
    assert!(played >= 8, "played {played}");
    assert!(refused_for_other >= 8);

    // An answer the rules refuse: the rule's message, nothing changed.
    let r = wait_people(s.addr, &red, 30).await;
    let me = if r["waiting"] == "red" { &red } else { &blue };
    if r["view"]["outcome"].is_null() {
        let v = r["version"].clone();
        let (code, e) = post(s.addr, &format!("/api/play/{me}"), r#"{"choose": "no-such-option"}"#).await;
        assert_eq!(code, 422, "{e}");
        assert!(e["error"].as_str().unwrap().contains("choose one of"), "{e}");
        assert_eq!(get(s.addr, &format!("/api/play/{me}")).await.1["version"], v);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_oversized_unknown_and_flooding_clients_are_refused_without_harm() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let (code, created) = post(s.addr, "/api/matches", &kazzam_two_people()).await;
    assert_eq!(code, 201);
    let red = token(&created, 0);
    let before = get(s.addr, &format!("/api/play/{red}")).await.1;

    assert_eq!(post(s.addr, "/api/matches", "{not json").await.0, 400);
    assert_eq!(post(s.addr, "/api/matches", r#"{"system": "kazzam", "seats": [{"kind": "robot"}]}"#).await.0, 400);
    assert_eq!(post(s.addr, "/api/matches", r#"{"system": "chess"}"#).await.0, 400);
    let (code, e) = post(s.addr, "/api/matches", r#"{"system": "kazzam", "map": "nowhere"}"#).await;
    assert_eq!((code, e["error"].as_str().unwrap().contains("no built-in map")), (400, true), "{e}");
    let (code, e) =
        post(s.addr, "/api/matches", r#"{"system": "kazzam", "seats": [{"kind": "bot", "bot": "mcts:99999999"}]}"#)
            .await;
    assert_eq!(code, 400, "{e}");
    assert_eq!(post(s.addr, &format!("/api/play/{red}"), r#"{"choose": 3}"#).await.0, 400);
    assert_eq!(post(s.addr, &format!("/api/play/{red}"), "").await.0, 400);
    let huge = format!(r#"{{"choose": "{}"}}"#, "x".repeat(300_000));
    assert_eq!(post(s.addr, &format!("/api/play/{red}"), &huge).await.0, 413);
    assert_eq!(get(s.addr, "/api/play/0123456789abcdef0123456789abcdef").await.0, 404);
    assert_eq!(get(s.addr, "/api/play/not-a-token").await.0, 404);
    assert_eq!(get(s.addr, "/api/play/0123/step/0").await.0, 404);

    // A WebSocket: malformed text gets an error and the socket stays; an oversized message
    // closes it; so does a flood.
    let mut ws = socket(s.addr, &red).await;
    next(&mut ws, 5).await.unwrap();
    send(&mut ws, "{oops").await;
    let e = loop {
        let m = next(&mut ws, 5).await.unwrap();
        if m["type"] == "error" {
            break m;
        }
    };
    assert_eq!(e["status"], 400);
    send(&mut ws, &format!(r#"{{"choose": "{}"}}"#, "y".repeat(10_000))).await;
    while next(&mut ws, 5).await.is_some() {}

    let mut flood = socket(s.addr, &red).await;
    next(&mut flood, 5).await.unwrap();
    for _ in 0..60 {
        use futures_util::SinkExt;
        if flood.send(tokio_tungstenite::tungstenite::Message::Text("{}".into())).await.is_err() {
            break;
        }
    }
    let mut closed = false;
    for _ in 0..200 {
        if next(&mut flood, 5).await.is_none() {
            closed = true;
            break;
        }
    }
    assert!(closed, "a flooding socket is cut off");

    // The match is as it was.
    let after = get(s.addr, &format!("/api/play/{red}")).await.1;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["view"], before["view"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_answers_over_its_websocket_and_a_spectator_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let body = json!({"system": "kazzam", "seed": 11, "seats": [{"kind": "person"}]});
    let (_, created) = post(s.addr, "/api/matches", &body.to_string()).await;
    let (red, watch) = (token(&created, 0), created["spectator"]["token"].as_str().unwrap().to_string());
    let now = wait_turn(s.addr, &red, 30).await;
    let mut watch_ws = socket(s.addr, &watch).await;
    next(&mut watch_ws, 5).await.unwrap();
    send(&mut watch_ws, &json!({"choose": pick(&now)}).to_string()).await;
    let e = next(&mut watch_ws, 5).await.unwrap();
    assert_eq!((e["type"].as_str(), e["status"].as_u64()), (Some("error"), Some(403)), "{e}");

    let mut red_ws = socket(s.addr, &red).await;
    next(&mut red_ws, 5).await.unwrap();
    let v = now["version"].as_u64().unwrap();
    send(&mut red_ws, &json!({"choose": pick(&now)}).to_string()).await;
    let u = until_version(&mut red_ws, v + 1, 10).await.unwrap();
    assert_eq!(u["you"]["name"], "red");
    assert!(until_version(&mut watch_ws, v + 1, 10).await.is_some());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draw_steel_is_created_and_played_and_steps_replay() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let (code, sys) = get(s.addr, "/api/systems").await;
    assert_eq!(code, 200);
    let ds = sys["systems"].as_array().unwrap().iter().find(|x| x["id"] == "drawsteel").unwrap().clone();
    assert!(ds["maps"].as_array().unwrap().iter().any(|m| m == "mire-ambush"), "{ds}");
    let body =
        json!({"system": "drawsteel", "seed": 5, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]});
    let (code, created) = post(s.addr, "/api/matches", &body.to_string()).await;
    assert_eq!(code, 201, "{created}");
    let heroes = token(&created, 0);
    let mut played = 0;
    for _ in 0..15 {
        let now = wait_turn(s.addr, &heroes, 30).await;
        if !now["view"]["outcome"].is_null() {
            break;
        }
        let (code, after) =
            post(s.addr, &format!("/api/play/{heroes}"), &json!({"choose": pick(&now)}).to_string()).await;
        assert_eq!(code, 200, "{after}");
        played += 1;
    }
    assert!(played >= 10);
    // Step by step: step 0 is the start, a later step is the match after that many inputs.
    // Asked now, so no bot moves while the steps are read.
    let now = wait_turn(s.addr, &heroes, 30).await;
    let n = now["version"].as_u64().unwrap();
    let (code, start_view) = get(s.addr, &format!("/api/play/{heroes}/step/0")).await;
    assert_eq!((code, start_view["type"].as_str()), (200, Some("replay")));
    assert_eq!(start_view["view"]["round"], 1);
    let (code, last) = get(s.addr, &format!("/api/play/{heroes}/step/{n}")).await;
    assert_eq!(code, 200);
    assert_eq!(last["view"], now["view"], "the last step is the match as it stands");
    assert_eq!(get(s.addr, &format!("/api/play/{heroes}/step/1000000")).await.0, 404);
}

/// Every message a Draw Steel seat and the spectators get over their sockets is exactly the view
/// the engine makes for that viewer, never the referee's; where the two differ, the hidden part
/// (another seat's options, an unseen creature's square) is absent from the message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_never_receives_what_it_may_not_see() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let body = json!({"system": "drawsteel", "map": "mire-ambush", "seed": 3,
        "seats": [{"kind": "person"}, {"kind": "person"}]});
    let (code, created) = post(s.addr, "/api/matches", &body.to_string()).await;
    assert_eq!(code, 201, "{created}");
    let tokens = [token(&created, 0), token(&created, 1), created["spectator"]["token"].as_str().unwrap().to_string()];
    let mut sockets = Vec::new();
    for t in &tokens {
        sockets.push(socket(s.addr, t).await);
    }
    let mut received: Vec<Vec<Value>> = vec![Vec::new(); 3];
    for (i, ws) in sockets.iter_mut().enumerate() {
        received[i].push(next(ws, 5).await.unwrap());
    }
    // Both people answer with a seeded random pick for a while.
    let mut rng = 7u64;
    for _ in 0..300 {
        let mut asked = None;
        for t in &tokens[..2] {
            let v = get(s.addr, &format!("/api/play/{t}")).await.1;
            if v["waiting"] == v["you"]["name"] && v["view"]["outcome"].is_null() {
                asked = Some((t.clone(), v));
            }
        }
        let Some((t, v)) = asked else { break };
        let opts = v["view"]["decision"]["options"].as_array().unwrap();
        rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let choice = opts[(rng >> 33) as usize % opts.len()]["id"].as_str().unwrap().to_string();
        let version = v["version"].as_u64().unwrap();
        assert_eq!(post(s.addr, &format!("/api/play/{t}"), &json!({"choose": choice}).to_string()).await.0, 200);
        for (i, ws) in sockets.iter_mut().enumerate() {
            received[i].push(until_version(ws, version + 1, 10).await.unwrap());
        }
    }
    // Replay the stored match in the test and compare each message with each viewer's view.
    let stored = fray_server::store::Store::load(
        &fray_server::store::SqliteStore::open(&dir.path().join("fray.sqlite")).unwrap(),
        created["match"].as_str().unwrap(),
    )
    .unwrap()
    .unwrap();
    let registry = systems().registry;
    let sys = registry.get("drawsteel").unwrap();
    let (mut options_hidden, mut squares_hidden, mut dice_shown) = (0, 0, 0);
    for (i, msgs) in received.iter().enumerate() {
        let viewer = if i < 2 { Viewer::Seat(Seat(i as u8)) } else { Viewer::Spectator };
        let mut table = sys.new_table(&stored.request, stored.seed).unwrap();
        let mut applied = 0;
        for m in msgs {
            let k = m["version"].as_u64().unwrap() as usize;
            let from = table.journal_len();
            for input in &stored.inputs[applied..k] {
                let seat = Seat(input["seat"].as_u64().unwrap() as u8);
                table.choose(seat, input["choose"].as_str().unwrap()).unwrap();
            }
            applied = k;
            // The dice tray gets the rolls of the change as this viewer may read its journal,
            // and each with the log line that tells it.
            let rolls = rolls_of(&table.events_since(from, viewer), &table.log_since(from, viewer));
            assert_eq!(m["rolls"], json!(rolls), "message {k} to viewer {i} carries that viewer's rolls");
            for r in &rolls {
                dice_shown += 1;
                assert!(m["log"].as_array().unwrap().contains(&r["text"]), "{r} is told in the log");
            }
            let mine = serde_json::to_value(table.view(viewer)).unwrap();
            let referee = serde_json::to_value(table.view(Viewer::Referee)).unwrap();
            assert_eq!(m["view"], mine, "message {k} to viewer {i} is that viewer's view");
            let text = m.to_string();
            if referee["decision"] != mine["decision"] {
                // Another seat's decision: its options are not in the message.
                options_hidden += 1;
                assert_eq!(mine["decision"]["options"], json!([]));
                for o in referee["decision"]["options"].as_array().unwrap() {
                    assert!(!text.contains(&format!("\"label\":{}", o["label"])), "option {o} leaked to viewer {i}");
                }
            }
            for (id, u) in referee["units"].as_object().unwrap() {
                if mine["units"][id]["unseen"] == true {
                    squares_hidden += 1;
                    assert!(mine["units"][id]["at"].is_null() && !u["at"].is_null());
                }
            }
        }
    }
    assert!(options_hidden > 10, "the other seat's decisions were hidden {options_hidden} times");
    assert!(dice_shown > 10, "the dice tray showed {dice_shown} rolls");
    // Seed 3 on the Mire Ambush has a creature hide from the other side (DS-HIDE-1).
    assert!(squares_hidden > 0, "no creature was ever unseen: pick a seed where one hides");
    eprintln!("hidden from a viewer: {options_hidden} decisions' options, {squares_hidden} unseen creatures' squares");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restarted_server_holds_every_match_as_it_was_and_plays_on() {
    let dir = tempfile::tempdir().unwrap();
    let (red, before) = {
        let s = start(dir.path()).await;
        let body =
            json!({"system": "kazzam", "seed": 21, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]});
        let (_, created) = post(s.addr, "/api/matches", &body.to_string()).await;
        let red = token(&created, 0);
        for _ in 0..6 {
            let now = wait_turn(s.addr, &red, 30).await;
            assert_eq!(
                post(s.addr, &format!("/api/play/{red}"), &json!({"choose": pick(&now)}).to_string()).await.0,
                200
            );
        }
        let before = wait_turn(s.addr, &red, 30).await;
        (red, before)
    };
    let s = start(dir.path()).await;
    assert_eq!(s.server.hub().held(), 1);
    let after = get(s.addr, &format!("/api/play/{red}")).await.1;
    assert_eq!(after["version"], before["version"]);
    assert_eq!(after["view"], before["view"]);
    let (code, _) = post(s.addr, &format!("/api/play/{red}"), &json!({"choose": pick(&after)}).to_string()).await;
    assert_eq!(code, 200, "the resumed match plays on");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_undoes_its_own_last_choice_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let (_, created) = post(s.addr, "/api/matches", &kazzam_two_people()).await;
    let tokens = [token(&created, 0), token(&created, 1)];
    let watch = created["spectator"]["token"].as_str().unwrap().to_string();
    let now = wait_people(s.addr, &tokens[0], 30).await;
    let (me, other) = if now["waiting"] == "red" { (&tokens[0], &tokens[1]) } else { (&tokens[1], &tokens[0]) };
    let before = get(s.addr, &format!("/api/play/{me}")).await.1;
    assert_eq!(before["can_undo"], false);
    assert_eq!(post(s.addr, &format!("/api/play/{me}/undo"), "").await.0, 409, "nothing of mine to undo yet");
    // "move" asks where to: no die is rolled, so it may be taken back.
    let (code, after) = post(s.addr, &format!("/api/play/{me}"), r#"{"choose": "move"}"#).await;
    assert_eq!(code, 200, "{after}");
    assert_eq!(after["can_undo"], true);
    assert_eq!(post(s.addr, &format!("/api/play/{other}/undo"), "").await.0, 409);
    assert_eq!(post(s.addr, &format!("/api/play/{watch}/undo"), "").await.0, 403);
    let (code, undone) = post(s.addr, &format!("/api/play/{me}/undo"), "").await;
    assert_eq!(code, 200, "{undone}");
    assert_eq!(undone["version"], before["version"]);
    assert_eq!(undone["view"]["decision"], before["view"]["decision"]);
    assert_eq!(undone["view"]["units"], before["view"]["units"]);
    assert_eq!(post(s.addr, &format!("/api/play/{me}/undo"), "").await.0, 409, "one choice back, not two");
    // The store forgot it too: a restarted server holds the match as it is now.
    drop(s);
    let s = start(dir.path()).await;
    assert_eq!(get(s.addr, &format!("/api/play/{me}")).await.1["version"], before["version"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_of_another_fray_is_not_resumed() {
    use fray_server::store::{SeatPlayer, SqliteStore, Store, StoredMatch, StoredSeat};
    let dir = tempfile::tempdir().unwrap();
    let store = SqliteStore::open(&dir.path().join("fray.sqlite")).unwrap();
    let token = "00112233445566778899aabbccddeeff".to_string();
    store
        .create(&StoredMatch {
            id: "old".into(),
            system: "kazzam".into(),
            request: Default::default(),
            seed: 1,
            seats: vec![StoredSeat { name: "red".into(), player: SeatPlayer::Person { token: token.clone() } }],
            spectator: "ffeeddccbbaa99887766554433221100".into(),
            inputs: vec![json!({"seat": 0, "choose": "move"})],
            finished: false,
            fingerprint: r#""kazzam engine 0, content 0""#.into(),
        })
        .unwrap();
    drop(store);
    let s = start(dir.path()).await;
    assert_eq!(s.server.hub().held(), 0);
    let (code, e) = get(s.addr, &format!("/api/play/{token}")).await;
    assert_eq!(code, 500);
    assert!(e["error"].as_str().unwrap().contains("could make another match"), "{e}");
}

/// A seat takes so many WebSockets at once (its person's tabs), and the spectators together so
/// many; past that a new one is refused with 429 until one closes. Spectators filling their
/// share do not keep a seat out, and another match is not affected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_match_takes_a_bounded_number_of_websockets() {
    let dir = tempfile::tempdir().unwrap();
    let limits = fray_server::Limits { ws_per_seat: 2, ws_spectators: 3, ..Default::default() };
    let s = start_with(dir.path(), limits).await;
    let (_, created) = post(s.addr, "/api/matches", &kazzam_two_people()).await;
    let (red, blue) = (token(&created, 0), token(&created, 1));
    let watch = created["spectator"]["token"].as_str().unwrap().to_string();
    let refused = |t: &str| {
        let url = format!("ws://{}/api/play/{t}/ws", s.addr);
        async move {
            match tokio_tungstenite::connect_async(&url).await {
                Err(tokio_tungstenite::tungstenite::Error::Http(r)) => r.status().as_u16() == 429,
                _ => false,
            }
        }
    };
    let mut watching = Vec::new();
    for _ in 0..3 {
        watching.push(socket(s.addr, &watch).await);
    }
    assert!(refused(&watch).await, "a fourth spectator socket is refused");
    let mut reds = vec![socket(s.addr, &red).await, socket(s.addr, &red).await];
    for ws in reds.iter_mut().chain(watching.iter_mut()) {
        assert_eq!(next(ws, 5).await.unwrap()["type"], "update");
    }
    assert!(refused(&red).await, "a third socket for red is refused");
    // Blue's share is its own.
    let mut b = socket(s.addr, &blue).await;
    assert!(next(&mut b, 5).await.is_some());
    // Another match is not affected.
    let (_, other) = post(s.addr, "/api/matches", &kazzam_two_people()).await;
    let mut elsewhere = socket(s.addr, &token(&other, 0)).await;
    assert!(next(&mut elsewhere, 5).await.is_some());
    // One of red's closes: a new one is let in and gets the match.
    drop(reds.pop());
    let url = format!("ws://{}/api/play/{red}/ws", s.addr);
    let mut again = None;
    for _ in 0..50 {
        if let Ok((ws, _)) = tokio_tungstenite::connect_async(&url).await {
            again = Some(ws);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    let mut again = again.expect("a socket once one closed");
    assert_eq!(next(&mut again, 5).await.unwrap()["type"], "update");
}

/// One client address past its HTTP allowance is answered 429 (with Retry-After) and let in
/// again once the allowance refills.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_past_its_request_rate_is_refused_then_let_in_again() {
    let dir = tempfile::tempdir().unwrap();
    let limits = fray_server::Limits { http_per_second: 5, http_burst: 10, ..Default::default() };
    let s = start_with(dir.path(), limits).await;
    let (code, created) = post(s.addr, "/api/matches", &kazzam_two_people()).await;
    assert_eq!(code, 201);
    let red = token(&created, 0);
    let mut codes = Vec::new();
    for _ in 0..30 {
        codes.push(get(s.addr, &format!("/api/play/{red}")).await.0);
    }
    let refused = codes.iter().filter(|&&c| c == 429).count();
    assert!(refused >= 15, "a burst of 30 requests against an allowance of 10: {codes:?}");
    assert!(codes[..9].iter().all(|&c| c == 200), "the first requests are within the burst: {codes:?}");
    // The refusal says why and when to come back.
    let raw = {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut c = tokio::net::TcpStream::connect(s.addr).await.unwrap();
        c.write_all(b"GET /api/systems HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut out = String::new();
        c.read_to_string(&mut out).await.unwrap();
        out
    };
    assert!(raw.starts_with("HTTP/1.1 429") && raw.to_lowercase().contains("retry-after: 1"), "{raw}");
    assert!(raw.contains("too many requests"), "{raw}");
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    let (code, v) = get(s.addr, &format!("/api/play/{red}")).await;
    assert_eq!(code, 200, "let in again once the allowance refilled: {v}");
    assert_eq!(v["you"]["name"], "red");
}

/// The dice tray reads rolls from journal entries by their fields alone (no system named).
#[test]
fn the_dice_tray_reads_faces_kept_and_dropped_dice_and_who_rolled() {
    let events = [
        // Two dice where one counts (the higher, as with Advantage): the other is dropped.
        json!({"event": "attack-rolled", "attacker": "ada", "target": "bo", "dice": [2, 5], "natural": 5, "mode": "advantage"}),
        // Two dice that add up: both count.
        json!({"event": "power-roll", "creature": "vessa", "dice": [3, 4], "natural": 7, "bonus": 2, "total": 9}),
        // One result, no faces.
        json!({"event": "save", "unit": "cy", "what": "Burning", "roll": 4, "success": true}),
        // Not a roll.
        json!({"event": "moved", "unit": "cy", "to": [1, 2]}),
    ];
    let lines: Vec<String> = (1..=4).map(|i| format!("line {i}")).collect();
    let r = rolls_of(&events, &lines);
    assert_eq!(r.len(), 3);
    assert_eq!(r[0]["faces"], json!([2, 5]));
    assert_eq!(r[0]["kept"], json!([false, true]));
    assert_eq!((&r[0]["who"], &r[0]["target"], &r[0]["what"]), (&json!("ada"), &json!("bo"), &json!("advantage")));
    assert_eq!(r[0]["kind"], "attack rolled");
    assert_eq!(r[1]["kept"], json!([true, true]));
    assert_eq!((&r[1]["bonus"], &r[1]["result"]), (&json!(2), &json!(9)));
    assert_eq!(r[2]["outcome"], "success");
    assert_eq!((&r[2]["faces"], &r[2]["result"], &r[2]["text"]), (&json!([]), &json!(4), &json!("line 3")));
}

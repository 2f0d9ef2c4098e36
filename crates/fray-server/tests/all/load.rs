//! A bounded load test on loopback (ignored by default):
//! `cargo test -p fray-server --test all load:: -- --ignored --nocapture`. FRAY_LOAD_MATCHES
//! concurrent Kazzam matches (default 40), each a simulated person (HTTP answers, a WebSocket
//! for updates) against random bots, for FRAY_LOAD_SECS seconds (default 20). Reports the
//! matches held and the time from an answer's POST to its update on the person's socket.

use crate::common::*;
use serde_json::json;
use std::time::{Duration, Instant};

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a load test: run on purpose"]
async fn many_matches_with_bots_and_clients() {
    let matches = env("FRAY_LOAD_MATCHES", 40) as usize;
    let secs = env("FRAY_LOAD_SECS", 20);
    let dir = tempfile::tempdir().unwrap();
    let s = start(dir.path()).await;
    let addr = s.addr;
    let end = Instant::now() + Duration::from_secs(secs);
    let mut clients = Vec::new();
    for i in 0..matches {
        clients.push(tokio::spawn(async move {
            let body = json!({"system": "kazzam", "seed": i, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]});
            let (code, created) = post(addr, "/api/matches", &body.to_string()).await;
            assert_eq!(code, 201, "{created}");
            let red = created["seats"][0]["token"].as_str().unwrap().to_string();
            let mut ws = socket(addr, &red).await;
            let mut last = next(&mut ws, 30).await.unwrap();
            let mut latencies = Vec::new();
            while Instant::now() < end {
                if !last["view"]["outcome"].is_null() {
                    break;
                }
                if last["waiting"] != "red" {
                    match next(&mut ws, 30).await {
                        Some(m) if m["type"] == "update" => last = m,
                        Some(_) => {}
                        None => break,
                    }
                    continue;
                }
                let v = last["version"].as_u64().unwrap();
                let t = Instant::now();
                let (code, _) = post(addr, &format!("/api/play/{red}"), &json!({"choose": pick(&last)}).to_string()).await;
                assert_eq!(code, 200);
                last = until_version(&mut ws, v + 1, 30).await.expect("the update");
                latencies.push(t.elapsed());
            }
            latencies
        }));
    }
    let mut all = Vec::new();
    for c in clients {
        all.extend(c.await.unwrap());
    }
    all.sort();
    let pct = |p: f64| all[((all.len() as f64 * p) as usize).min(all.len() - 1)];
    let held = s.server.hub().held();
    eprintln!(
        "load: {matches} matches held ({held} in the hub), {} answers in {secs} s, answer-to-update latency p50 {:?} p99 {:?} max {:?}",
        all.len(),
        pct(0.50),
        pct(0.99),
        all.last().unwrap()
    );
    assert_eq!(held, matches);
    assert!(all.len() > matches);
}

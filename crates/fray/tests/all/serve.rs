//! `fray serve` as a process: killed with SIGKILL at any moment, it comes back on the same data
//! folder with every input it acknowledged, and the match plays on.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

struct Serving {
    child: Child,
    addr: String,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(data: &std::path::Path) -> Serving {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fray"))
        .args(["serve", "--addr", "127.0.0.1:0", "--data"])
        .arg(data)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    out.read_line(&mut line).unwrap();
    // Keep reading what it prints: a closed pipe would end it (fray takes SIGPIPE's default).
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    let addr = line.split("http://").nth(1).and_then(|r| r.split('/').next()).expect(&line).to_string();
    Serving { child, addr }
}

fn http(addr: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut s = std::net::TcpStream::connect(addr).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut text = String::new();
    let _ = s.read_to_string(&mut text);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    (status, serde_json::from_str(body).unwrap_or(Value::Null))
}

#[test]
fn a_server_killed_at_any_moment_keeps_every_acknowledged_input() {
    let dir = tempfile::tempdir().unwrap();
    let s = serve(dir.path());
    // A person against a bot, and a match of bots only that plays while the server is killed.
    let body = json!({"system": "kazzam", "seed": 5, "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]});
    let (code, created) = http(&s.addr, "POST", "/api/matches", &body.to_string());
    assert_eq!(code, 201, "{created}");
    let red = created["seats"][0]["token"].as_str().unwrap().to_string();
    let body = json!({"system": "drawsteel", "seed": 9, "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]});
    let (code, bots) = http(&s.addr, "POST", "/api/matches", &body.to_string());
    assert_eq!(code, 201, "{bots}");
    let watch = bots["spectator"]["token"].as_str().unwrap().to_string();

    let wait_red = |addr: &str| {
        let end = Instant::now() + Duration::from_secs(60);
        loop {
            let (_, v) = http(addr, "GET", &format!("/api/play/{red}"), "");
            if v["waiting"] == "red" {
                return v;
            }
            assert!(Instant::now() < end, "red is never asked");
            std::thread::sleep(Duration::from_millis(20));
        }
    };
    for _ in 0..5 {
        let v = wait_red(&s.addr);
        let first = v["view"]["decision"]["options"][0]["id"].as_str().unwrap().to_string();
        let (code, r) = http(&s.addr, "POST", &format!("/api/play/{red}"), &json!({"choose": first}).to_string());
        assert_eq!(code, 200, "{r}");
    }
    let red_saw = wait_red(&s.addr);
    // The last version the spectators of the bots' match were shown, just before the kill.
    let (_, seen) = http(&s.addr, "GET", &format!("/api/play/{watch}"), "");
    drop(s);

    let s = serve(dir.path());
    let (_, red_now) = http(&s.addr, "GET", &format!("/api/play/{red}"), "");
    assert_eq!(red_now["version"], red_saw["version"]);
    assert_eq!(red_now["view"], red_saw["view"]);
    let v = seen["version"].as_u64().unwrap();
    let (code, then) = http(&s.addr, "GET", &format!("/api/play/{watch}/step/{v}"), "");
    assert_eq!(code, 200, "input {v}, acknowledged before the kill, is kept: {then}");
    assert_eq!(then["view"], seen["view"], "and replays to what the spectators saw");
    let first = red_now["view"]["decision"]["options"][0]["id"].as_str().unwrap().to_string();
    let (code, _) = http(&s.addr, "POST", &format!("/api/play/{red}"), &json!({"choose": first}).to_string());
    assert_eq!(code, 200, "the resumed match plays on");
}

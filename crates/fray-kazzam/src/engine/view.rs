//! The reader's picture of a Kazzam match (fray-core's [`View`]): what the terminal, the
//! browser and scenario assertions see. Kazzam adds per unit `implement`, `ward`,
//! `miss_tokens`, `strikes`, `kills`, `points`, `orbs` (ids carried), `stowed`, `taken_out`,
//! `initiative`, `powers`, `features`, `spent`, `actions`, `in_dungeon`, `button`; and at the top level
//! `orbs`, `pedestals`, `order`, `strikes`, `end_triggered`, and for a board drawn as text
//! `legend` (what each map character present means) and `marks` (empty pedestals and orbs on
//! the ground, each with its square, a character and what it means).

use crate::engine::state::{OrbLoc, State, UnitIdx};
use crate::rules::statuses::describe_duration;
use fray_core::view::{StatusView, UnitView, View};
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;

fn unit_view(s: &State, u: UnitIdx) -> UnitView {
    let un = s.unit(u);
    let mut statuses: Vec<String> = un.statuses.iter().map(|st| st.kind.name().to_string()).collect();
    if un.on_map() && s.is_bloodied(u) {
        statuses.push("bloodied".into()); // K-ST-Bloodied is derived from HP
    }
    if crate::classes::features::hovering(s, u)
        && s.has(u, crate::rules::statuses::StatusKind::Hovering)
        && !statuses.iter().any(|x| x == "hovering")
    {
        statuses.push("hovering".into()); // Self-Lift
    }
    let status_details = un
        .statuses
        .iter()
        .map(|st| StatusView {
            name: st.kind.name().to_string(),
            amount: st.kind.has_amount().then_some(st.amount as i64),
            source: st.source.map(|x| s.unit(x).id.to_string()),
            duration: describe_duration(s, &st.duration),
        })
        .collect();
    let mut extra = Map::new();
    extra.insert("implement".into(), json!(un.implement.name()));
    extra.insert("speed".into(), json!(un.speed));
    extra.insert("ward".into(), json!(un.ward));
    extra.insert("special_ward".into(), json!(un.special_ward));
    extra.insert("miss_tokens".into(), json!(un.miss_tokens));
    extra.insert("strikes".into(), json!(un.strikes));
    extra.insert("kills".into(), json!(un.kills));
    extra.insert("points".into(), json!(un.points));
    extra.insert("orbs_scored".into(), json!(un.orbs_scored));
    extra.insert("orbs".into(), json!(s.held_orbs(u).map(|o| s.orbs[o as usize].id.to_string()).collect::<Vec<_>>()));
    let elixirs: Vec<String> = s.unit(u).brewer.elixirs.iter().map(|e| s.powers.get(e.power).id.clone()).collect();
    extra.insert("elixirs".into(), json!(elixirs));
    extra.insert("luck_tokens".into(), json!(s.unit(u).charmed.luck_tokens));
    let blade: Vec<String> = s.unit(u).brewer.blade.iter().map(|&p| s.powers.get(p).id.clone()).collect();
    extra.insert("blade".into(), json!(blade));
    extra.insert("stowed".into(), json!(un.stowed));
    extra.insert("taken_out".into(), json!(un.taken_out));
    extra.insert("pc".into(), json!(un.pc));
    extra.insert("kind".into(), json!(un.kind));
    if let Some(p) = &un.placed {
        extra.insert("owner".into(), json!(p.owner.map(|o| s.unit(o).id.to_string())));
        extra.insert("what".into(), json!(&*p.what));
        extra.insert("charges".into(), json!(p.charges));
        extra.insert("loaded".into(), json!(p.loaded)); // K-ROLE-5: the Trap Roll a loaded boost came with
        extra.insert("riding".into(), json!(p.host.filter(|_| un.on_map()).map(|h| s.unit(h).id.to_string())));
    }
    extra.insert("initiative".into(), json!(un.initiative));
    extra.insert("powers".into(), json!(un.powers.iter().map(|&p| s.powers.get(p).id.clone()).collect::<Vec<_>>()));
    let lock =
        un.counters.iter().find(|c| c.feature == crate::classes::features::Feature::Scryer).and_then(|c| c.about);
    extra.insert("charge_tokens".into(), json!(crate::classes::features::charge_tokens(s, u)));
    extra.insert("locked_on".into(), json!(lock.map(|t| s.unit(t).id.to_string())));
    extra.insert("features".into(), json!(un.features.iter().map(|f| f.id(&s.content)).collect::<Vec<_>>()));
    extra.insert("spent".into(), json!(un.spent.iter().map(|&p| s.powers.get(p).id.clone()).collect::<Vec<_>>()));
    extra.insert(
        "actions".into(),
        json!({ "attack_used": un.actions.attack, "moves_used": un.actions.moves, "role_used": un.actions.role, "free_used": un.actions.free }),
    );
    extra.insert("in_dungeon".into(), json!(un.pos.is_some_and(|p| s.arena.footprint_in_dungeon(p, un.size))));
    extra.insert("button".into(), json!(un.button));
    extra.insert("turn_over".into(), json!(un.turn_over));
    extra.insert("armed".into(), crate::engine::triggers::view(s, u));
    extra.insert("cooldowns".into(), json!(un.cooldowns.iter().map(|c| c.feature.to_string()).collect::<Vec<_>>()));
    UnitView {
        name: un.name.to_string(),
        team: un.side.name().to_string(),
        at: un.pos,
        size: un.size,
        hp: un.hp as i64,
        max_hp: un.max_hp as i64,
        statuses,
        status_details,
        extra,
    }
}

/// Builds the view.
pub fn build(s: &State) -> View {
    let units = s.unit_indices().map(|u| (s.unit(u).id.to_string(), unit_view(s, u))).collect();
    let mut score = BTreeMap::new();
    score.insert("red".to_string(), s.score[0] as i64);
    score.insert("blue".to_string(), s.score[1] as i64);
    let mut extra = Map::new();
    let orbs: Map<String, Value> = s
        .orbs
        .iter()
        .map(|o| {
            let loc = match o.loc {
                OrbLoc::Pedestal { pedestal } => json!({ "pedestal": s.arena.pedestals[pedestal as usize].id, "at": s.arena.pedestals[pedestal as usize].at }),
                OrbLoc::Ground { at } => json!({ "at": at }),
                OrbLoc::Held { by } => json!({ "held_by": s.unit(by).id.to_string(), "at": s.unit(by).pos }),
            };
            let mut v = json!({ "color": o.color.name() });
            v.as_object_mut().unwrap().extend(loc.as_object().unwrap().clone());
            (o.id.to_string(), v)
        })
        .collect();
    extra.insert("orbs".into(), Value::Object(orbs));
    extra.insert(
        "pedestals".into(),
        Value::Object(
            s.arena
                .pedestals
                .iter()
                .enumerate()
                .map(|(i, p)| {
                    let on: Vec<String> = s
                        .orbs
                        .iter()
                        .filter(|o| o.loc == (OrbLoc::Pedestal { pedestal: i as u8 }))
                        .map(|o| o.id.to_string())
                        .collect();
                    (p.id.clone(), json!({ "team": p.side.name(), "at": p.at, "orbs": on }))
                })
                .collect(),
        ),
    );
    extra.insert("order".into(), json!(s.order.iter().map(|&u| s.unit(u).id.to_string()).collect::<Vec<_>>()));
    let strikes = |side| s.units.iter().filter(|u| u.side == side).map(|u| u.strikes).sum::<i32>();
    extra.insert(
        "strikes".into(),
        json!({ "red": strikes(crate::engine::arena::Side::Red), "blue": strikes(crate::engine::arena::Side::Blue) }),
    );
    extra.insert("end_triggered".into(), json!(s.end_triggered));
    let zones: Vec<Value> = s
        .zones
        .iter()
        .map(|z| {
            json!({
                "power": s.powers.get(z.power).id,
                "owner": s.unit(z.owner).id.to_string(),
                "centre": z.centre,
                "size": z.size,
                "kind": z.kind,
                "amount": z.amount,
                "until": if z.ends_after_turn.is_some() { "end of its owner's next turn" } else { "end of the match" },
            })
        })
        .collect();
    extra.insert("zones".into(), Value::Array(zones));
    let modifiers: Vec<Value> = s
        .modifiers
        .iter()
        .map(|m| {
            let attackers = match m.attackers {
                crate::rules::modifiers::Attackers::Unit(u) => s.unit(u).id.to_string(),
                crate::rules::modifiers::Attackers::AlliesOf(u) => format!("allies of {}", s.unit(u).id),
                crate::rules::modifiers::Attackers::Any => "anyone".into(),
            };
            json!({
                "power": s.powers.get(m.power).id,
                "kind": m.kind,
                "attackers": attackers,
                "against": m.against.map(|t| s.unit(t).id.to_string()),
                "first_roll_only": m.first,
                "amount": m.amount,
                "duration": crate::rules::statuses::describe_duration(s, &m.duration),
            })
        })
        .collect();
    extra.insert("modifiers".into(), Value::Array(modifiers));
    let curses: Vec<Value> = s
        .curses
        .iter()
        .map(|c| {
            json!({
                "power": s.powers.get(c.power).id,
                "maker": s.unit(c.maker).id.to_string(),
                "target": s.unit(c.target).id.to_string(),
                "on": c.on,
                "at": c.at,
                "duration": crate::rules::statuses::describe_duration(s, &c.duration),
                "value": c.value,
            })
        })
        .collect();
    extra.insert("curses".into(), Value::Array(curses));
    let (warps, traps, dropped) = crate::classes::porter::view(s);
    extra.insert("warps".into(), warps);
    extra.insert("portal_traps".into(), traps);
    extra.insert("dropped_implements".into(), dropped);
    extra.insert("tunnels".into(), crate::classes::porter::view_tunnels(s));
    extra.insert("creep_groups".into(), crate::rules::creeps::view(s));
    extra.insert("removed".into(), crate::classes::porter::removal::view(s)); // Removal from Existence
    let rows = s.arena.rows();
    extra.insert("legend".into(), legend(&rows));
    extra.insert("marks".into(), marks(s));
    View {
        system: "kazzam".into(),
        round: s.round,
        turn: s.current().map(|u| s.unit(u).id.to_string()),
        map: rows,
        units,
        score,
        decision: crate::engine::flow::decision(s),
        log: Vec::new(),
        outcome: s.outcome.clone(),
        extra,
    }
}

/// What each character of [`crate::engine::arena::Arena::rows`] means (docs/maps.md).
fn meaning(c: char) -> Option<&'static str> {
    Some(match c {
        '.' => "open ground",
        '#' => "wall",
        '~' => "difficult terrain",
        '!' => "damaging terrain",
        'w' => "water",
        'l' => "low cover",
        'F' => "full cover (pillar)",
        'o' => "fog (concealed)",
        'e' => "edge (off the arena)",
        'p' => "pit",
        'X' => "Dungeon exit",
        '@' => "portal",
        'P' => "pedestal",
        's' => "slick ground",
        'g' => "gas",
        'b' => "boost square",
        'k' => "a Chuck's Block (low cover)",
        'R' => "red pedestal (an orb on it)",
        'B' => "blue pedestal (an orb on it)",
        'N' => "neutral pedestal (an orb on it)",
        'D' => "Dungeon floor",
        '1' => "red spawn square",
        '2' => "blue spawn square",
        'T' => "the Throne",
        'Z' => "banishing ray's seat",
        'z' => "banishing ray's reach",
        _ => return None,
    })
}

/// The meaning of every character the map shows, in first-seen order.
fn legend(rows: &[String]) -> Value {
    let mut out = Map::new();
    for c in rows.iter().flat_map(|r| r.chars()) {
        if let Some(m) = meaning(c)
            && !out.contains_key(&c.to_string())
        {
            out.insert(c.to_string(), json!(m));
        }
    }
    Value::Object(out)
}

/// What the map characters cannot show: a pedestal with no orb on it (`Q` red, `C` blue, `n`
/// neutral, as docs/maps.md draws them) and an orb lying on the ground (`*`).
fn marks(s: &State) -> Value {
    let mut out = Vec::new();
    for (i, p) in s.arena.pedestals.iter().enumerate() {
        if !s.orbs.iter().any(|o| o.loc == (OrbLoc::Pedestal { pedestal: i as u8 })) {
            let (glyph, side) = match p.side {
                crate::engine::arena::Side::Red => ("Q", "red"),
                crate::engine::arena::Side::Blue => ("C", "blue"),
                _ => ("n", "neutral"),
            };
            out.push(json!({ "at": p.at, "glyph": glyph, "means": format!("empty {side} pedestal") }));
        }
    }
    for o in &s.orbs {
        if let OrbLoc::Ground { at } = o.loc {
            out.push(json!({ "at": at, "glyph": "*", "means": "orb on the ground" }));
        }
    }
    Value::Array(out)
}

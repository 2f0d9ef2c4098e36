//! The reader's picture of a Draw Steel combat. Per creature the core's `size` is the squares a
//! side it fills; this adds `stamina` (also as `hp`), `winded`, `dying`, `dead`, `temp_stamina`,
//! `recoveries`, `surges`, `z`, `size_label` (as written: "1M", "2"), `hidden`,
//! `hidden_from` (the enemies it is hidden from), `surprised`, `defending`, `acted`, `actions`;
//! for the Director's creatures `brutal` and `malicious` (Malice bought, DS-GAP-17); at the top
//! level `hero_tokens`, `malice`, `last_test`. This is the referee's view; what a seat or a
//! spectator sees is [`crate::seats::view`], which also marks a creature whose square it hides
//! `unseen`.

use crate::state::State;
use fray_core::view::{StatusView, UnitView, View};
use serde_json::{Map, json};
use std::collections::BTreeMap;

/// Builds the view.
pub fn build(s: &State) -> View {
    let mut units = BTreeMap::new();
    for c in s.all() {
        let x = s.c(c);
        let mut statuses: Vec<String> = x.conditions.iter().map(|k| k.kind.name().to_string()).collect();
        if x.unconscious {
            statuses.extend(["unconscious".to_string(), "prone".to_string()]);
        }
        if x.dying() && !statuses.iter().any(|n| n == "bleeding") {
            statuses.push("bleeding".into());
        }
        if x.winded() && !x.dead {
            statuses.push("winded".into());
        }
        if x.dying() {
            statuses.push("dying".into());
        }
        let details = x
            .conditions
            .iter()
            .map(|k| StatusView {
                name: k.kind.name().into(),
                amount: None,
                source: k.source.map(|c| s.c(c).id.to_string()),
                duration: match k.until {
                    crate::state::Until::EndOfTurn { who, .. } => format!("EoT ({})", s.c(who).id),
                    crate::state::Until::SaveEnds => "save ends".into(),
                    crate::state::Until::Encounter => "until the encounter ends".into(),
                },
            })
            .collect();
        let mut extra = Map::new();
        extra.insert("stamina".into(), json!(x.stamina));
        extra.insert("temp_stamina".into(), json!(x.temp_stamina));
        extra.insert("winded".into(), json!(x.winded()));
        extra.insert("dying".into(), json!(x.dying()));
        extra.insert("dead".into(), json!(x.dead));
        if x.unconscious {
            // DS-GAP-20: knocked out: unconscious and prone.
            extra.insert("unconscious".into(), json!(true));
        }
        extra.insert("recoveries".into(), json!(x.recoveries));
        if x.hero {
            extra.insert("victories".into(), json!(x.victories));
            extra.insert("experience".into(), json!(x.experience));
        }
        extra.insert("surges".into(), json!(x.surges));
        if let Some((class, name, _)) = x.class {
            // DS-GAP-15: the hero's Heroic Resource.
            extra.insert("class".into(), json!(class));
            extra.insert("resource_name".into(), json!(name));
            extra.insert("resource".into(), json!(x.resource));
        }
        // DS-GAP-15: the censor judging it, the tactician marking it (shown only when set).
        for (key, by) in [("judged_by", x.judged_by), ("marked_by", x.marked_by)] {
            if let Some(b) = by {
                extra.insert(key.into(), json!(s.c(b).id.to_string()));
            }
        }
        if let Some(q) = x.squad.map(usize::from) {
            // DS-GAP-19: a minion's Stamina is its squad's pool; a captain names its squad.
            let sq = &s.squads[q];
            extra.insert("squad".into(), json!(&*sq.name));
            if x.minion {
                extra.insert("squad_stamina".into(), json!(sq.pool));
                extra.insert("captain".into(), json!(sq.captain.map(|k| s.c(k).id.to_string())));
                extra.insert("with_captain".into(), json!(s.captain_bonus(c).is_some()));
            } else {
                extra.insert("captain_of".into(), json!(sq.captain == Some(c)));
            }
        }
        if !x.hero {
            // DS-GAP-17: Malice features bought and waiting for their ability.
            extra.insert("brutal".into(), json!(x.brutal));
            extra.insert("malicious".into(), json!(x.malicious));
        }
        extra.insert("z".into(), json!(x.z));
        // The core's `size` is the squares a side; the label goes under its own key, so the JSON
        // has one `size` (DS-SIZE-1, DS-SIZE-2).
        extra.insert("size_label".into(), json!(x.size.label()));
        extra.insert("hidden".into(), json!(x.hidden));
        let hidden_from: Vec<String> =
            s.active().filter(|&e| crate::abilities::hidden_from(s, c, e)).map(|e| s.c(e).id.to_string()).collect();
        extra.insert("hidden_from".into(), json!(hidden_from));
        extra.insert("aided_by".into(), json!(x.aided_by.map(|a| s.c(a).id.to_string())));
        extra.insert("surprised".into(), json!(x.surprised));
        extra.insert("defending".into(), json!(x.defending));
        extra.insert("acted".into(), json!(x.acted));
        extra.insert("hero".into(), json!(x.hero));
        extra.insert(
            "actions".into(),
            json!({
                "main_used": x.acts.main,
                "maneuvers_used": x.acts.maneuvers,
                "moves_used": x.acts.moves,
                "extra_main": x.acts.extra_main,
                "move_left": x.acts.move_left,
                "jump_extra": x.acts.jump_extra,
            }),
        );
        units.insert(
            x.id.to_string(),
            UnitView {
                name: x.name.to_string(),
                team: x.side.name().into(),
                at: x.pos,
                size: x.size.squares,
                hp: x.stamina as i64,
                max_hp: x.max_stamina as i64,
                statuses,
                status_details: details,
                extra,
            },
        );
    }
    let map: Vec<String> = (0..s.arena.terrain.height())
        .map(|y| (0..s.arena.terrain.width()).map(|x| s.terrain_at(fray_core::grid::Pos::new(x, y)).glyph()).collect())
        .collect();
    let mut score = BTreeMap::new();
    for side in [crate::state::Side::Heroes, crate::state::Side::Director] {
        let standing = s.creatures.iter().filter(|c| c.side == side && c.active() && !c.dying()).count();
        score.insert(side.name().to_string(), standing as i64);
    }
    let mut extra = Map::new();
    extra.insert("hero_tokens".into(), json!(s.hero_tokens));
    // DS-GAP-17: the Director's Malice is on the table for both seats to see.
    extra.insert("malice".into(), json!(s.malice));
    extra.insert("last_test".into(), json!(s.last_test));
    let objects: Map<String, serde_json::Value> = s
        .objects
        .iter()
        .map(|o| {
            let mut v = json!({ "at": o.at, "size": o.label(), "standing": !o.toppled });
            // DS-GAP-20: its material and the Stamina left in each square it spans (rows, then
            // columns; 0 for a destroyed square).
            if let Some(m) = o.material {
                v["material"] = json!(m.name());
                v["stamina"] = json!(o.stamina);
            }
            (o.name.clone(), v)
        })
        .collect();
    extra.insert("objects".into(), json!(objects));
    extra.insert("legend".into(), legend(&map));
    View {
        system: "drawsteel".into(),
        round: s.round,
        turn: s.current.map(|c| s.c(c).id.to_string()),
        map,
        units,
        score,
        decision: crate::flow::decision(s),
        log: vec![],
        outcome: s.outcome.clone(),
        extra,
    }
}

/// What each map character present means, in first-seen order (for a board drawn as text).
fn legend(rows: &[String]) -> serde_json::Value {
    let mut out = Map::new();
    for c in rows.iter().flat_map(|r| r.chars()) {
        let means = match c {
            '.' => "open ground",
            '#' => "wall",
            '~' => "difficult terrain",
            '!' => "damaging terrain",
            'w' => "water",
            'o' => "fog (concealed)",
            'c' => "chasm",
            'O' => "object",
            'e' => "edge (off the map)",
            _ => continue,
        };
        out.entry(c.to_string()).or_insert_with(|| json!(means));
    }
    serde_json::Value::Object(out)
}

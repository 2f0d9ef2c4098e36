//! Conformance: random-legal bots fight the sample encounter to the end over many seeds,
//! through the core's harness (every offered option accepted, option ids read back, the record
//! replays); the Dojo's own invariants hold after every choice.

use fray_core::conformance::{self, Settings};
use fray_dojo::{Dojo, FightSetup, State};
use std::sync::Arc;

fn invariants(_: &Dojo, s: &State) -> Result<(), String> {
    for (i, x) in s.units.iter().enumerate() {
        if x.hp > x.bar_max || x.hp < 0 {
            return Err(format!("{} has {} HP of {}", x.id, x.hp, x.bar_max));
        }
        if x.broken > x.bars {
            return Err(format!("{} has more broken bars than bars", x.id));
        }
        // Out: the last bar broken, or out of play (D-OUT-1).
        // A lone Boss over the Edge is out of play but not out (D-OUT-5).
        let gone = x.at.is_none() && !fray_dojo::enemies::ringed_out(x);
        // D-G-28: a Bleeding unit at 0 HP on the map (so not gone) stays in the fight.
        let bleeding = !x.out && fray_dojo::style_abilities::bleeding(s, i as u8);
        if x.out != (x.broken >= x.bars || gone) && !bleeding {
            return Err(format!(
                "{}: out is {} with {} of {} bars broken, at {:?}",
                x.id, x.out, x.broken, x.bars, x.at
            ));
        }
        if let Some(p) = x.at
            && !s.map.contains(p)
            && !matches!(s.flow.last(), Some(fray_dojo::frames::Frame::Edge { .. }))
        {
            return Err(format!("{} stands beyond the map with no Edge question pending", x.id));
        }
        if x.tokens.iter().any(|&t| t < 0) || x.shield < 0 {
            return Err(format!("{} holds a negative count", x.id));
        }
        if let Some(c) = x.challenge
            && s.u(c).out
        {
            return Err(format!("{} holds the Challenge of {}, who is out (D-TOK-4)", x.id, s.u(c).id));
        }
    }
    // `stooge-figures`: each Stooge stands on the map, on a square of its own.
    for (p, u) in &s.members {
        if !s.map.contains(*p) || !s.u(*u).active() {
            return Err(format!("a Stooge of {} stands on {p:?}, off the map or with its group down", s.u(*u).id));
        }
    }
    // D-RNG-5: a big unit's squares are on the map, on no Wall, and no other unit, figure or big
    // unit stands on a Giant's (a Vehicle's may be stood on, its riders).
    for &(u, car, _) in &s.shapes {
        if !s.u(u).active() {
            continue;
        }
        let mine = fray_dojo::big::squares(s, u);
        for &q in &mine {
            if !s.map.contains(q) || s.obstacle(q) == Some(fray_dojo::content::Obstacle::Wall) {
                return Err(format!("{} covers {q:?}, off the map or a Wall", s.u(u).id));
            }
        }
        for (v, x) in s.units.iter().enumerate() {
            let v = v as u8;
            if v == u || x.at.is_none() || !x.active() {
                continue;
            }
            let theirs = fray_dojo::big::squares(s, v);
            let other_big = fray_dojo::big::big(s, v);
            if (!car || other_big) && theirs.iter().any(|q| mine.contains(q)) {
                return Err(format!("{} stands on a square of {}", x.id, s.u(u).id));
            }
        }
        if !car && s.members.iter().any(|m| mine.contains(&m.0)) {
            return Err(format!("a figure stands on a square of {}", s.u(u).id));
        }
    }
    // Riders share a Vehicle's squares, its own among them.
    let mut squares: Vec<_> = s
        .units
        .iter()
        .enumerate()
        .filter(|(i, _)| !fray_dojo::big::vehicle(s, *i as u8))
        .filter_map(|(_, x)| x.at)
        .chain(s.members.iter().map(|m| m.0))
        .collect();
    let n = squares.len();
    squares.sort_unstable();
    squares.dedup();
    if squares.len() != n {
        return Err("two units share a square".into());
    }
    Ok(())
}

fn play(options: &[&str], n: u64) {
    let setup = FightSetup { options: options.iter().map(|s| s.to_string()).collect(), ..Default::default() };
    fights("random fights", &setup, n);
}

/// `n` random fights from `setup` (seeds from 0), each to its end with every invariant kept;
/// `label` names the setup in a failure.
fn fights(label: &str, setup: &FightSetup, n: u64) {
    let game = Arc::new(Dojo::builtin());
    let start = conformance::from_setup::<Dojo>(setup);
    let settings = Settings { max_decisions: 50_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{label}: {} of {n} fights failed:\n{}", failures.len(), failures.join("\n"));
}

/// Runs `f` on every item, spread over the machine's cores (each item's fights are few, so the
/// harness's own spreading of seeds leaves cores idle). A panic on any item is passed on.
fn in_parallel<T: Sync>(items: &[T], f: impl Fn(&T) + Sync) {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let f = &f;
                scope.spawn(move || items.iter().skip(k).step_by(threads).for_each(f))
            })
            .collect();
        for h in handles {
            h.join().unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
    });
}

/// The sample heroes against the enemy force `force`, with `options`.
fn against(force: &str, options: Vec<String>) -> FightSetup {
    FightSetup {
        options,
        enemies: Some(fray_core::table::TeamText {
            path: "force.toml".into(),
            text: format!("enemies = [{force:?}]\n"),
        }),
        ..Default::default()
    }
}

/// How many fights a test plays: a quick budget by default (CI's time), FRAY_RANDOM_MATCHES for
/// the sweep (.ci/sweep plays 3000).
fn count() -> u64 {
    std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(30)
}

/// The sample fight, to the end, over many seeds.
#[test]
fn random_fights_finish_cleanly() {
    play(&[], count());
}

/// The same at every weight class, with the other dice choices.
#[test]
fn random_fights_at_every_weight() {
    for w in ["featherweight", "lightweight", "heavyweight", "weight-of-the-world"] {
        let weight = format!("weight={w}");
        play(&[&weight, "boss-die=4", "wild-die=8"], count().div_ceil(8));
    }
}

#[test]
fn the_same_seed_replays_the_same_fight() {
    let game = Arc::new(Dojo::builtin());
    let setup = FightSetup::default();
    conformance::same_seed_same_match(&game, &conformance::from_setup::<Dojo>(&setup), 4).unwrap();
}

/// The sample encounter's heroes against `enemies` (a force or enemy ids), `n` seeds.
fn play_force(enemies: &str, uneven: &str, n: u64) {
    let text = format!("enemies = [{enemies}]\nuneven = \"{uneven}\"\n");
    let setup = FightSetup {
        enemies: Some(fray_core::table::TeamText { path: "force.toml".into(), text }),
        ..Default::default()
    };
    fights(enemies, &setup, n);
}

/// D-RNG-5, D-G-22: the heroes against the big units (the Giants and the Vehicles) and the
/// Twins, to the end; the invariants check that no big unit runs off the map or overlaps anyone.
#[test]
fn random_fights_against_big_units() {
    let n = count().div_ceil(6).max(4);
    for enemies in ["\"grizzly-bear\", \"war-tank\"", "\"helicopter\"", "\"maybe-lean\"", "\"the-twins\""] {
        play_force(enemies, "whole", n);
    }
}

/// D-EN-4, D-EN-6, D-EN-7 (`stooge-figures`): the heroes against forces whose Stooges stand one
/// figure a member, moved, hit and lost one by one.
#[test]
fn random_fights_with_stooge_figures() {
    for f in ["angel", "punk", "trickster"] {
        let setup = against(f, vec!["stooge-figures=true".into()]);
        let n = count().div_ceil(30).max(2);
        fights(f, &setup, n);
    }
}

/// D-OPT-4 (`endless-stooges`): the heroes against forces whose Stooges leave play on every hit
/// and come back as their turns start; the fights still end (or reach the round limit) cleanly.
#[test]
fn random_fights_with_endless_stooges() {
    for (f, weight) in [("angel", "middleweight"), ("punk", "featherweight"), ("trickster", "heavyweight")] {
        let setup = against(f, vec!["endless-stooges=true".into(), format!("weight={weight}")]);
        let n = count().div_ceil(30).max(2);
        fights(f, &setup, n);
    }
}

/// D-OPT-2 (`heroic-power-up`): the sample fight with Bonuses handed on by Heroic Spirit.
#[test]
fn random_fights_with_heroic_power_up() {
    play(&["heroic-power-up=true"], count().div_ceil(4));
}

/// D-EN-*: the heroes against every force of the enemy chapter, to the end, with the sides'
/// bars evened out both ways (D-CMP-2).
#[test]
fn random_fights_against_every_force() {
    let content = Dojo::builtin().content().unwrap();
    let file = &content.enemies;
    let per = count().div_ceil(30).max(2);
    for (i, f) in file.force.iter().enumerate() {
        let uneven = if i % 2 == 0 { "whole" } else { "even" };
        play_force(&format!("{:?}", f.id), uneven, per);
    }
}

/// D-BON-*, D-PEN-*: the Bonuses and Penalties that last a round or ask for picks (and
/// Handcuffed), handed out on both sides (balanced, D-CMP-5) in fights against the Unique
/// Enemies.
#[test]
fn random_fights_with_round_long_stakes() {
    let mut text = String::from("enemies = [\"unique\"]\n");
    let stakes = [
        ("ada", "bonus", "talk-big"),
        ("ada", "bonus", "defensive"),
        ("ada", "bonus", "freedom"),
        ("ada", "bonus", "found-an-opening"),
        ("icarus", "penalty", "dazed"),
        ("grizzly-bear", "penalty", "defenseless"),
        ("newton-poirot", "penalty", "spotlight"),
        ("helicopter", "penalty", "power-down"),
        ("bo", "penalty", "enraged"),
        ("bo", "penalty", "missed-opportunity"),
        ("bo", "penalty", "dazed"),
        ("bo", "penalty", "power-down"),
        ("guardian", "bonus", "tactics"),
        ("ghoul", "bonus", "talk-big"),
        ("war-tank", "bonus", "freedom"),
        ("warlock", "bonus", "defensive"),
        // D-PEN-6: ada is cuffed to the nearest unit within 2 spaces (bo), balanced by a Bonus.
        ("ada", "penalty", "handcuffed"),
        ("bo", "bonus", "vigor"),
    ];
    for (unit, kind, id) in stakes {
        text.push_str(&format!("[[stake]]\nunit = \"{unit}\"\n{kind} = \"{id}\"\n"));
    }
    let setup = FightSetup {
        enemies: Some(fray_core::table::TeamText { path: "stakes.toml".into(), text }),
        ..Default::default()
    };
    let n = count().div_ceil(6).max(4);
    fights("random fights", &setup, n);
}

/// Encounters whose Stances carry every Style with a Unique Action played whole: each hero three
/// of them, each Warrior one, over a map with every obstacle.
fn styled_encounter(styles: &[&str]) -> String {
    const FORMS: [&str; 12] = [
        "zen",
        "shadow",
        "iron",
        "power",
        "one-two",
        "blaster",
        "control",
        "dance",
        "song",
        "vigilance",
        "wild",
        "reversal",
    ];
    let mut text = String::from(
        "name = \"Style test\"\n[map]\nrows = [\n  \"..........\",\n  \"..#....~..\",\n  \"..#....~..\",\n  \
         \"....%%....\",\n  \"..^.......\",\n  \".......#..\",\n  \"..~....#..\",\n  \"..........\",\n]\n",
    );
    let mut k = 0;
    let mut place = 0;
    let mut units = 0;
    while k < styles.len() {
        let hero = units % 2 == 0;
        let n = if hero { 3.min(styles.len() - k) } else { 1 };
        let stances: Vec<String> =
            (0..n).map(|i| format!("\"{}+{}\"", styles[k + i], FORMS[(k + i + units) % FORMS.len()])).collect();
        let (x, y) = if hero { (place % 10, 0) } else { (place % 10, 7) };
        text.push_str(&format!(
            "[[unit]]\nid = \"u{units}\"\nside = \"{}\"\nkind = \"{}\"\nat = [{x}, {y}]\nstances = [{}]\n",
            if hero { "heroes" } else { "enemies" },
            if hero { "hero" } else { "warrior" },
            stances.join(", ")
        ));
        k += n;
        units += 1;
        if !hero {
            place += 1;
        }
    }
    text
}

/// Random fights in Stances of every Style whose Unique Actions are played, to the end.
#[test]
fn random_fights_with_every_style_action() {
    let groups: [&[&str]; 3] = [
        &[
            "judgment",
            "singing",
            "winged",
            "charging",
            "dark",
            "ogres",
            "slasher",
            "vampire",
            "zombie",
            "burning",
            "explosion",
            "inferno",
            "volcanic",
            "artillery",
            "ricochet",
            "aura",
            "crosshair",
            "motivating",
        ],
        &[
            "crying",
            "puppets",
            "bleeding",
            "flashy",
            "knockdown",
            "taunting",
            "caged",
            "mysterious",
            "whip",
            "collateral",
            "eye-of-the",
            "lucky",
            "weightless",
            "precision",
            "pressure",
            "reflected",
            "patient",
            "vortex",
            "syphon",
        ],
        &[
            "elder",
            "spirit",
            "hidden",
            "akimbo",
            "machine",
            "unbreakable",
            "mastermind",
            "puppets",
            "judgment",
            "shining",
        ],
    ];
    let game = Arc::new(Dojo::builtin());
    for (i, styles) in groups.iter().enumerate() {
        let text = styled_encounter(styles);
        let setup = FightSetup {
            options: vec!["round-limit=8".into()],
            map: Some(fray_core::table::TeamText { path: format!("styles-{i}.toml"), text }),
            enemies: None,
        };
        game.build(&setup).unwrap_or_else(|e| panic!("{}", e.0.join("\n")));
        let n = count().div_ceil(2);
        fights("random fights", &setup, n);
    }
}

/// A Frantic hero (D-HC-5, D-HC-9) picking a new Form and Style each turn, fought to the end.
#[test]
fn random_fights_with_a_frantic_hero() {
    let text = "name = \"Frantic\"\n[map]\nrows = [\"........\", \"..#..~..\", \"...^....\", \"........\"]\n\
        [[unit]]\nid = \"f\"\nside = \"heroes\"\nkind = \"hero\"\nat = [0, 0]\n\
        forms = [\"dance\", \"control\", \"wild\"]\nstyles = [\"charging\", \"bleeding\", \"whip\"]\n\
        frantic = [\"cavalry\", \"punk\", \"angel\"]\n\
        [[unit]]\nid = \"w\"\nside = \"enemies\"\nkind = \"warrior\"\nat = [7, 3]\nstances = [\"zen\"]\n";
    let setup = FightSetup {
        options: vec!["round-limit=12".into()],
        map: Some(fray_core::table::TeamText { path: "frantic.toml".into(), text: text.into() }),
        enemies: None,
    };
    let n = count().div_ceil(4);
    fights("random fights", &setup, n);
}

/// D-CMP-4: three-way battles, the sample heroes against two enemy teams (the enemies and the
/// rivals), each a force of the enemy chapter, to the end.
#[test]
fn random_three_way_battles() {
    let game = Arc::new(Dojo::builtin());
    let per = count().div_ceil(30).max(2);
    for (a, b, favor) in [("\"angel\"", "\"demon\"", "helper"), ("\"the-judge\"", "\"punk\"", "helped")] {
        let text = format!("enemies = [{a}]\nrivals = [{b}]\n");
        let setup = FightSetup {
            options: vec![format!("favor={favor}")],
            enemies: Some(fray_core::table::TeamText { path: "three-way.toml".into(), text }),
            ..Default::default()
        };
        let state = game.build(&setup).unwrap_or_else(|e| panic!("{}", e.0.join("\n")));
        assert!(state.three_way(), "{a} and {b}: a rivals' side");
        fights(&format!("{a} v {b}"), &setup, per);
    }
}

/// Random fights of an encounter file `text` with `options`, `n` seeds, to the end.
fn play_encounter(name: &str, text: &str, options: &[&str], n: u64) {
    let game = Arc::new(Dojo::builtin());
    let setup = FightSetup {
        options: options.iter().map(|s| s.to_string()).collect(),
        map: Some(fray_core::table::TeamText { path: format!("{name}.toml"), text: text.into() }),
        enemies: None,
    };
    game.build(&setup).unwrap_or_else(|e| panic!("{name}: {}", e.0.join("\n")));
    fights(name, &setup, n);
}

/// D-CMP-1, D-CMP-3, D-EN-*: a guest Boss fighting for the heroes, a hero gone over to the
/// enemies, a Stooge group and a Super Stooge group, with a push into a Wall breaking it
/// (D-OPT-1), at two weights, to the end.
#[test]
fn random_fights_with_guests_and_switched_sides() {
    let text = "name = \"Guests and turncoats\"\n[map]\nrows = [\n  \"..........\",\n  \"..#....~..\",\n  \
        \"....%%....\",\n  \"..^....#..\",\n  \"..........\",\n]\n\
        [[unit]]\nid = \"ada\"\nside = \"heroes\"\nkind = \"hero\"\nat = [0, 0]\nstances = [\"heroic+iron\", \"zen\", \"dance\"]\n\
        [[unit]]\nid = \"pal\"\nside = \"heroes\"\nkind = \"boss\"\nat = [1, 4]\nstances = [\"zen\", \"vigilance\", \"shadow\"]\n\
        [[unit]]\nid = \"pal2\"\nside = \"heroes\"\nkind = \"warrior\"\nat = [2, 4]\nstances = [\"wild\"]\n\
        [[unit]]\nid = \"turncoat\"\nside = \"enemies\"\nkind = \"hero\"\nat = [9, 0]\nstances = [\"power\", \"one-two\", \"song\"]\n\
        [[unit]]\nid = \"gang\"\nside = \"enemies\"\nkind = \"stooges\"\nat = [9, 4]\nstances = [\"blaster\"]\n\
        [[unit]]\nid = \"supers\"\nside = \"enemies\"\nkind = \"stooges\"\nbars = 2\narchetypes = [\"cyborg\"]\nat = [8, 4]\nstances = [\"control\"]\n";
    let per = count().div_ceil(6).max(4);
    for weight in ["weight=middleweight", "weight=featherweight"] {
        play_encounter("guests", text, &[weight, "world-of-cardboard=true", "round-limit=12"], per);
    }
}

/// D-BON-*, D-PEN-*: the Bonuses and Penalties handed out once as the fight starts (tokens, a
/// Shield, Traps), on both sides, against the Unique Enemies.
#[test]
fn random_fights_with_start_stakes() {
    let mut text = String::from("enemies = [\"unique\"]\n");
    let stakes = [
        ("ada", "bonus", "counter"),
        ("ada", "penalty", "burned"),
        ("bo", "bonus", "power-up"),
        ("bo", "penalty", "exhausted"),
        ("icarus", "bonus", "willpower"),
        ("icarus", "penalty", "trapped"),
        ("guardian", "bonus", "counter"),
        ("ghoul", "penalty", "burned"),
        ("war-tank", "penalty", "exhausted"),
        ("warlock", "bonus", "power-up"),
        ("ada", "bonus", "willpower"),
        ("bo", "penalty", "trapped"),
    ];
    for (unit, kind, id) in stakes {
        text.push_str(&format!("[[stake]]\nunit = \"{unit}\"\n{kind} = \"{id}\"\n"));
    }
    let game = Arc::new(Dojo::builtin());
    let setup = FightSetup {
        enemies: Some(fray_core::table::TeamText { path: "stakes.toml".into(), text }),
        ..Default::default()
    };
    game.build(&setup).unwrap_or_else(|e| panic!("{}", e.0.join("\n")));
    let n = count().div_ceil(6).max(4);
    fights("random fights", &setup, n);
}

/// D-TERR-3: every force starting around the heroes (an ambush), at a weight class each, with
/// the other dice options, to the end.
#[test]
fn random_ambushes_by_every_force_at_every_weight() {
    let content = Dojo::builtin().content().unwrap();
    let weights = ["featherweight", "lightweight", "middleweight", "heavyweight", "weight-of-the-world"];
    let per = count().div_ceil(60).max(1);
    let game = Arc::new(Dojo::builtin());
    let forces: Vec<(usize, _)> = content.enemies.force.iter().enumerate().collect();
    in_parallel(&forces, |&(i, f)| {
        let setup = FightSetup {
            options: vec![
                "start=ambush".into(),
                format!("weight={}", weights[i % weights.len()]),
                format!("inspired-die={}", [4, 6, 8][i % 3]),
            ],
            enemies: Some(fray_core::table::TeamText {
                path: "force.toml".into(),
                text: format!("enemies = [{:?}]\n", f.id),
            }),
            ..Default::default()
        };
        game.build(&setup).unwrap_or_else(|e| panic!("{}: {}", f.id, e.0.join("\n")));
        fights(&f.id, &setup, per);
    });
}

/// D-CMP-4 at every weight class: three-way battles between pairs of forces (each force once
/// as the enemies and once as the rivals), with both Favor readings, to the end.
#[test]
fn random_three_way_battles_between_every_force() {
    let content = Dojo::builtin().content().unwrap();
    let forces: Vec<&str> = content.enemies.force.iter().map(|f| f.id.as_str()).collect();
    let weights = ["featherweight", "lightweight", "middleweight", "heavyweight", "weight-of-the-world"];
    let per = count().div_ceil(60).max(1);
    let game = Arc::new(Dojo::builtin());
    let pairs: Vec<(usize, &str)> = forces.iter().copied().enumerate().collect();
    in_parallel(&pairs, |&(i, a)| {
        let b = forces[(i + 1) % forces.len()];
        let setup = FightSetup {
            options: vec![
                format!("favor={}", if i % 2 == 0 { "helper" } else { "helped" }),
                format!("weight={}", weights[i % weights.len()]),
                "round-limit=15".into(),
            ],
            enemies: Some(fray_core::table::TeamText {
                path: "three-way.toml".into(),
                text: format!("enemies = [{a:?}]\nrivals = [{b:?}]\n"),
            }),
            ..Default::default()
        };
        let state = game.build(&setup).unwrap_or_else(|e| panic!("{a} v {b}: {}", e.0.join("\n")));
        assert!(state.three_way(), "{a} and {b}: a rivals' side");
        fights(&format!("{a} v {b}"), &setup, per);
    });
}

/// D-EN-5, D-EN-8: found by the sweep (the Phantom force in an ambush at Lightweight, seed 3).
/// Its Stooges, every member having acted, sang Sing Along's number into the pool to spend at
/// once; it was offered their Unique Actions, which taking then refused. Now the number may go
/// only where the group's own limit lets it (Reinforcements), and the fight plays to its end.
/// Which seed brings Sing Along up moves whenever the rules change, so the first seeds are
/// played until one does: the harness refuses any fight where an offer is then refused.
#[test]
fn stooges_spend_a_sung_number_within_their_limit() {
    use fray_core::game::Game;
    let game = Arc::new(Dojo::builtin());
    let setup = FightSetup {
        options: vec!["start=ambush".into(), "weight=lightweight".into(), "inspired-die=4".into()],
        enemies: Some(fray_core::table::TeamText {
            path: "force.toml".into(),
            text: "enemies = [\"phantom\"]\n".into(),
        }),
        ..Default::default()
    };
    let start = conformance::from_setup::<Dojo>(&setup);
    let settings = Settings { max_decisions: 50_000, ..Settings::default() };
    let sang = (0..60).find(|&seed| {
        let played = conformance::random_match(&game, &start, seed, &settings, &invariants);
        let played = played.unwrap_or_else(|e| panic!("{e}"));
        assert!(game.outcome(&played.state).is_some(), "seed {seed}: the fight ends");
        played.journal.iter().any(|e| e.to_string().contains("friendly-ghosts uses Sing Along"))
    });
    assert!(sang.is_some(), "no fight of the first 60 seeds had the Stooges sing");
}

//! Conformance: random-legal bots fight the built-in encounter to the end over many seeds,
//! through the core's harness (every offered option accepted, option ids read back, the record
//! replays), spread over the cores; Draw Steel's own invariants hold after every choice.

use fray_core::conformance::{self, Settings};
use fray_drawsteel::{DrawSteel, EncounterSetup, State};
use std::sync::Arc;

fn invariants(_: &DrawSteel, s: &State) -> Result<(), String> {
    for x in &s.creatures {
        if x.stamina > x.max_stamina {
            return Err(format!("{} above maximum Stamina", x.id));
        }
        if !(x.dead || x.hero || x.stamina > 0) {
            return Err(format!("{} should be dead", x.id));
        }
    }
    Ok(())
}

/// 200 combats in the default run; `FRAY_RANDOM_MATCHES` of them in the long sweep (`.ci/sweep`),
/// spread over the cores by the harness.
#[test]
fn random_combats_finish_cleanly() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let game = Arc::new(DrawSteel::builtin());
    let setup = EncounterSetup::default();
    let start = conformance::from_setup::<DrawSteel>(&setup);
    let settings = Settings { max_decisions: 20_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{} of {n} combats failed:\n{}", failures.len(), failures.join("\n"));
}

/// A table offers every ability roll at a lower tier by default (DS-GAP-1); with the option
/// off the bots have one decision fewer. A quarter as many combats as the default run.
#[test]
fn random_combats_with_lower_tiers_not_offered() {
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let game = Arc::new(DrawSteel::builtin());
    let setup = EncounterSetup { options: vec!["offer-lower-tier=false".into()], ..Default::default() };
    let start = conformance::from_setup::<DrawSteel>(&setup);
    let settings = Settings { max_decisions: 20_000, ..Settings::default() };
    let (_, failures) = conformance::random_matches(&game, &start, 0..n.div_ceil(4), &settings, &invariants, |_, _| ());
    assert!(failures.is_empty(), "{} combats failed:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn the_same_seed_replays_the_same_combat() {
    let game = Arc::new(DrawSteel::builtin());
    let setup = EncounterSetup::default();
    conformance::same_seed_same_match(&game, &conformance::from_setup::<DrawSteel>(&setup), 4).unwrap();
}

/// What a seat may see (seat views in docs/rulings/drawsteel.md; DS-HIDE-1, DS-HIDE-3,
/// DS-DELTA-8): across random combats, after every choice, neither seat's view nor the lines
/// it reads give the square of an enemy hidden from every creature of its side; a spectator
/// sees neither side's hidden creatures; a seat sees no options of a decision not its own. Half
/// the combats play the glossary's hiding, half the published.
#[test]
fn seat_views_never_show_a_hidden_enemy() {
    use fray_core::Viewer;
    use fray_drawsteel::Event;
    use fray_drawsteel::state::Side;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let game = Arc::new(DrawSteel::builtin());
    let unseen_seen = AtomicUsize::new(0);
    // The test's own reading of "unseen": hidden from every enemy still on the battlefield.
    let unseen_by = |s: &State, c: usize, side: Side| {
        let x = &s.creatures[c];
        x.side != side
            && x.hidden
            && x.active()
            && s.creatures.iter().enumerate().filter(|(_, e)| e.side == side && e.active()).all(|(e, _)| {
                s.options.hidden == fray_drawsteel::options::Text::Glossary || !x.seen_by.contains(&(e as u8))
            })
    };
    let check = |_: &DrawSteel, s: &State, viewer: Viewer, view: &fray_core::view::View, read: &[Event]| {
        let secret = |c: usize| match viewer {
            Viewer::Seat(seat) => unseen_by(s, c, Side::from_index(seat.index())),
            Viewer::Spectator => unseen_by(s, c, Side::Heroes) || unseen_by(s, c, Side::Director),
            Viewer::Referee => false,
        };
        for (c, x) in s.creatures.iter().enumerate() {
            if !secret(c) {
                continue;
            }
            unseen_seen.fetch_add(1, Ordering::Relaxed);
            let u = &view.units[&*x.id];
            if u.at.is_some() || !u.extra["z"].is_null() {
                return Err(format!("{} is hidden from this viewer, but its view gives its square", x.id));
            }
            for e in read {
                if let Event::Moved { creature, .. } = e
                    && creature.idx as usize == c
                {
                    return Err(format!("{} is hidden from this viewer, who reads: {e}", x.id));
                }
            }
        }
        if let Some(d) = &view.decision {
            let own = matches!(viewer, Viewer::Seat(seat) if Side::from_index(seat.index()).name() == d.seat);
            if !own && !d.options.is_empty() {
                return Err(format!("a {} decision's options are shown to another viewer", d.kind));
            }
        }
        Ok(())
    };
    let settings = Settings { max_decisions: 20_000, describe_every: 50, replay: false, command_every: 0 };
    let mut failures = Vec::new();
    for (text, seeds) in [("hidden=glossary", 0..n.div_ceil(8)), ("hidden=published", 1000..1000 + n.div_ceil(8))] {
        let setup = EncounterSetup { options: vec![text.into()], ..Default::default() };
        let start = conformance::from_setup::<DrawSteel>(&setup);
        let (_, f) = conformance::random_matches_with_secrets(
            &game,
            &start,
            seeds,
            &settings,
            &invariants,
            Some(&check),
            |_, _| (),
        );
        failures.extend(f);
    }
    assert!(failures.is_empty(), "{} combats failed:\n{}", failures.len(), failures.join("\n"));
    assert!(
        unseen_seen.load(Ordering::Relaxed) > 0,
        "no creature was ever hidden from a whole side: nothing was checked"
    );
}

/// Commands are sugar for menu paths (DS-TURN-1): the harness above checks every menu path that
/// `Game::command_for` names a command for against that command. This makes sure the main
/// actions are named at all, so the check covers them.
#[test]
fn menu_paths_of_the_main_actions_have_commands() {
    use fray_core::dice::SeededDice;
    use fray_core::game::{ActionId, Game, Node, NullSink, Seat};
    let game = DrawSteel::builtin();
    let mut named = std::collections::BTreeSet::new();
    for seed in 0..6 {
        let mut dice = SeededDice::new(seed);
        let mut state = game.start(&EncounterSetup::default(), &mut dice, &mut NullSink).unwrap();
        let mut bot = fray_ai::RandomBot::new(seed);
        let mut open: Vec<(State, Seat, Vec<ActionId>)> = Vec::new();
        let mut legal = Vec::new();
        while let Node::Decide { seats, .. } = game.node(&state) {
            let seat = seats.first().unwrap();
            legal.clear();
            game.legal(&state, seat, &mut legal);
            let action = bot.pick(&legal);
            open.retain(|(_, by, path)| *by == seat && path.len() < 4);
            open.push((state.clone(), seat, Vec::new()));
            open.iter_mut().for_each(|(_, _, path)| path.push(action));
            game.apply(&mut state, seat, action, &mut dice, &mut NullSink).unwrap();
            open.retain(|(root, by, path)| match game.command_for(root, &state, *by, path) {
                Some(command) => {
                    let json = serde_json::to_value(&command).unwrap();
                    let verb =
                        json.as_object().unwrap().keys().find(|k| !["unit", "target", "square"].contains(&k.as_str()));
                    named.insert(verb.cloned().unwrap_or_default());
                    false
                }
                None => true,
            });
        }
    }
    for verb in ["ability", "move", "shift", "free_strike", "end_turn"] {
        assert!(named.contains(verb), "no menu path was named as a {verb} command (named: {named:?})");
    }
}

/// DS-GAP-1: a table offers a lower tier after every ability roll unless told not to.
#[test]
fn a_table_offers_lower_tiers_by_default() {
    use fray_core::dice::SeededDice;
    use fray_core::game::{Game, NullSink};
    let game = DrawSteel::builtin();
    let start = |options: Vec<String>| {
        game.start(&EncounterSetup { options, ..Default::default() }, &mut SeededDice::new(1), &mut NullSink)
            .unwrap()
            .options
            .offer_lower_tier
    };
    assert!(start(vec![]));
    assert!(!start(vec!["offer-lower-tier=false".into()]));
}

/// Issue 19: the warband (four heroes against a leader, a captained squad of minions and an
/// elite, `--map warband`) plays to the end under random bots over many seeds (the long sweep's
/// `FRAY_RANDOM_MATCHES`, a quarter of them) with no panic, the
/// squads' pools and the Malice pool never below 0 and a squad never keeping more minions than
/// its pool pays for; across the seeds the Director spends Malice and takes villain actions, and
/// never two villain actions in one round; the warlord's Spear Volley, a villain action with
/// targets, is taken; and Bram, a conduit, prays before some of his piety rolls.
#[test]
fn random_warband_combats_finish_cleanly() {
    use fray_drawsteel::Event;
    let n: u64 = std::env::var("FRAY_RANDOM_MATCHES").ok().and_then(|v| v.parse().ok()).unwrap_or(200);
    let game = Arc::new(DrawSteel::builtin());
    let (_, text) = fray_drawsteel::setup::ENCOUNTERS.iter().find(|(id, _)| *id == "warband").copied().unwrap();
    let setup = EncounterSetup {
        options: vec![],
        map: Some(fray_core::table::TeamText { path: "warband".into(), text: text.into() }),
    };
    let start = conformance::from_setup::<DrawSteel>(&setup);
    let settings = Settings { max_decisions: 20_000, ..Settings::default() };
    let squads = |_: &DrawSteel, s: &State| -> Result<(), String> {
        invariants(&DrawSteel::builtin(), s)?;
        if s.malice < 0 {
            return Err(format!("Malice {} below 0", s.malice));
        }
        for q in &s.squads {
            let alive = q.members.iter().filter(|&&m| s.c(m).active()).count();
            if q.pool < 0 || alive > q.keeps() {
                return Err(format!("squad {}: pool {} with {alive} minions alive", q.name, q.pool));
            }
        }
        Ok(())
    };
    // A quarter as many as the default run: nine creatures and a 20-round limit make each long.
    let n = n.div_ceil(4);
    let (used, failures) = conformance::random_matches(&game, &start, 0..n, &settings, &squads, |_, p| {
        let mut rounds = std::collections::BTreeMap::new();
        let (mut malice, mut villain, mut round, mut aimed, mut prayed) = (0, 0, 0, 0, 0);
        for e in &p.journal {
            match e {
                Event::RoundStarted { round: r } => round = *r,
                Event::MaliceSpent { .. } => malice += 1,
                Event::Resource { why, .. } if why.contains("prayer") => prayed += 1,
                Event::VillainAction { ability, .. } => {
                    villain += 1;
                    aimed += i32::from(ability == "Spear Volley");
                    *rounds.entry(round).or_insert(0) += 1;
                }
                _ => {}
            }
        }
        (malice, villain, rounds.values().all(|&k| k <= 1), aimed, prayed)
    });
    assert!(failures.is_empty(), "{} of {n} combats failed:\n{}", failures.len(), failures.join("\n"));
    assert!(used.iter().all(|u| u.2), "two villain actions in one round");
    assert!(used.iter().any(|u| u.0 > 0), "the Director never spent Malice");
    assert!(used.iter().any(|u| u.1 > 0), "no villain action was taken");
    assert!(used.iter().any(|u| u.3 > 0), "the warlord never took its villain action with targets");
    assert!(used.iter().any(|u| u.4 > 0), "Bram, a conduit, never prayed before his piety roll (DS-GAP-15)");
}

//! The journal of the reaction scenarios (`scenarios/collision/`): each names its glossary id and
//! says what happened, in order (C-GL-CASTLE, C-GL-GOT-YOUR-BACK, C-GL-SIDESTEP,
//! C-GL-TACTICAL-STRIKE, C-GL-TRIP, C-GL-DISTRACT, C-GL-COUNTER-ATTACK, C-GL-CHALLENGE,
//! C-GL-KISS-OF-DEATH). The scenarios themselves assert the numbers, squares and statuses.

/// Runs `file` and checks that it passes and that its journal holds `lines` in this order (each
/// a part of one line).
fn journal_holds(file: &str, lines: &[&str]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenarios/collision").join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let report = fray_collision::system::system().run_scenario(file, &text).unwrap_or_else(|e| panic!("{file}: {e}"));
    assert!(report.failure.is_none(), "{file}: {:?}", report.failure);
    let mut at = 0;
    for want in lines {
        match report.journal[at..].iter().position(|l| l.contains(want)) {
            Some(i) => at += i + 1,
            None => panic!("{file}: no line with {want:?} after line {at} in:\n{}", report.journal.join("\n")),
        }
    }
}

#[test]
fn c_gl_castle_swaps_the_target_with_an_ally() {
    journal_holds(
        "castle.toml",
        &[
            "lord uses Castle for 1E 1M: lord and guard trade places, guard is the target now (C-GL-CASTLE)",
            "2 injuries to guard",
        ],
    );
}

#[test]
fn c_gl_got_your_back_swaps_in_the_friend() {
    journal_holds(
        "got-your-back.toml",
        &["bodyguard uses Got your Back for 0E 1M: squire and bodyguard trade places", "injuries to bodyguard"],
    );
}

#[test]
fn c_gl_sidestep_out_of_reach_ignores_the_attack() {
    journal_holds(
        "sidestep-out-of-reach.toml",
        &["thief sidesteps from 3,2 to 4,2", "out of the attack's reach 1: the attack is ignored (C-GL-SIDESTEP)"],
    );
    journal_holds("sidestep-still-in-reach.toml", &["thief sidesteps from 3,2 to 4,2", "spear rolls 9"]);
}

#[test]
fn c_gl_tactical_strike_is_asked_of_the_attacking_side() {
    journal_holds(
        "tactical-strike.toml",
        &[
            "captain backs knight's attack: W-Att +2 and Pow +1",
            "knight rolls 3 + W-Att 7 = 10",
            "Injury roll 3 + Pow 5 - Arm 4 = margin 4: 2 injuries",
        ],
    );
}

#[test]
fn c_gl_trip_and_distract_cancel_abilities_and_reactions() {
    journal_holds(
        "trip.toml",
        &[
            "tripper reacts with Trip for 1M (C-GL-TRIP)",
            "a hit",
            "the Heal is cancelled",
            "Heal is cancelled; its 1E 1M are spent",
        ],
    );
    journal_holds("distract.toml", &["bard distracts healer for 2E: the Heal is negated (C-GL-DISTRACT)"]);
    journal_holds(
        "distract-negates-a-reaction.toml",
        &["bard distracts thief for 2E: the Dodge is negated", "against Def 7 + 3 = 10: a hit"],
    );
}

#[test]
fn c_gl_counter_attack_and_challenge_answer_moves() {
    journal_holds(
        "counter-attack.toml",
        &[
            "runner enters guard's melee reach at 4,1: guard counter attacks for 1E (C-GL-COUNTER-ATTACK)",
            "guard wins (C-BAT-18)",
            "runner runs from 1,1 to 4,1 (stopped)",
            "guard strikes runner with the Spear, no EC",
        ],
    );
    journal_holds(
        "challenge.toml",
        &[
            "runner tries to leave champion's melee reach: champion challenges it (C-GL-CHALLENGE)",
            "champion wins",
            "runner cannot move on",
            "runner stays on 5,1: its maneuver costs 1E all the same",
        ],
    );
}

#[test]
fn c_gl_kiss_of_death_restores_then_defeats_in_recovery() {
    journal_holds(
        "kiss-of-death.toml",
        &[
            "witch gives wounded the Kiss of Death for 2E 2M",
            "wounded recovers to",
            "wounded is defeated: the Kiss of Death takes it in its recovery",
        ],
    );
}

/// The look-up says the battle game plays each of them.
#[test]
fn the_look_up_marks_the_reactions_as_played() {
    let content = fray_collision::Content::builtin().expect("the built-in content");
    let index = fray_collision::reference::index(&content);
    let names = [
        "Castle",
        "Got your Back",
        "Sidestep",
        "Tactical Strike",
        "Trip",
        "Distract",
        "Counter Attack",
        "Challenge",
        "Kiss of Death",
    ];
    for name in names {
        let found = fray_core::lookup::search(&index, name);
        let entry = found.iter().find(|e| e.name == name).unwrap_or_else(|| panic!("{name}: no entry"));
        assert!(entry.text.contains(fray_collision::reference::PLAYED), "{name}: {}", entry.text);
    }
}

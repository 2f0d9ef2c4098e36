//! The character builder (K-PROG-1, K-PROG-2, K-PROG-3, K-PROG-6, K-PROG-7, K-IMP-13, K-FMT-1,
//! K-CHAR-1): a legal athlete of every class at every level 1-6 is accepted, and each illegal
//! choice is refused with what to change.

use fray_kazzam::Content;
use fray_kazzam::content::builder::{AthleteSpec, check_athlete, check_file};
use fray_kazzam::content::classes::ClassFile;
use std::sync::Arc;

/// The compiled-in content.
fn content() -> Arc<Content> {
    Arc::new(Content::builtin())
}

/// The first legal set of choices of a class at a level, from its picks.
fn legal(c: &ClassFile, level: u8) -> AthleteSpec {
    let mut features = Vec::new();
    let mut powers = Vec::new();
    for pick in c.pick.iter().filter(|p| p.level <= level && !p.automatic) {
        let have = |list: &Vec<String>, ids: &[String]| list.iter().filter(|x| ids.contains(x)).count() as u8;
        if pick.kind == "feature" {
            let ids: Vec<String> = c
                .feature
                .iter()
                .filter(|f| f.level == pick.level && f.group.as_ref().is_some_and(|g| pick.groups.contains(g)))
                .map(|f| f.id.clone())
                .collect();
            for id in &ids {
                if have(&features, &ids) < pick.min && !features.contains(id) {
                    features.push(id.clone());
                }
            }
        } else {
            let ids: Vec<String> = c
                .power
                .iter()
                .filter(|p| {
                    p.level.unwrap_or(1) == pick.level && p.group.as_ref().is_some_and(|g| pick.groups.contains(g))
                })
                .map(|p| p.id.clone())
                .collect();
            for id in &ids {
                if have(&powers, &ids) < pick.min && !powers.contains(id) {
                    powers.push(id.clone());
                }
            }
        }
    }
    AthleteSpec {
        name: format!("Test {}", c.class.name),
        class: c.class.id.clone(),
        role: "leader".into(),
        specialization: "tactician".into(),
        implement: c.class.implements[0].clone(),
        level,
        variants: Vec::new(),
        in_force: fray_kazzam::classes::features::SWAPPABLE
            .iter()
            .flat_map(|(g, _)| {
                let chosen: Vec<&str> = features.iter().map(String::as_str).collect();
                let n = fray_kazzam::classes::features::in_force_count(g, &chosen);
                features
                    .iter()
                    .filter(|f| c.feature.iter().any(|x| &x.id == *f && x.group.as_deref() == Some(*g)))
                    .take(n)
                    .cloned()
                    .collect::<Vec<_>>()
            })
            .collect(),
        features,
        powers,
        role_powers: ["hit-him", "mass-heal"][..usize::from(level >= 2) + usize::from(level >= 6)]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        advanced_implement: (level >= 3).then(|| {
            let imp = c.class.implements[0].as_str();
            fray_kazzam::content::classes::advanced_implements()
                .unwrap()
                .into_iter()
                .find(|a| a.kind == imp)
                .unwrap()
                .id
        }),
        appearance: None,
        motivation: None,
    }
}

#[test]
fn a_legal_athlete_of_every_class_at_every_level_is_accepted() {
    let content = content();
    let classes = content.classes();
    assert_eq!(classes.len(), 10, "all ten classes load");
    for c in classes {
        for level in 1..=6 {
            let a = legal(c, level);
            let errors = check_athlete(&a, &content);
            assert!(errors.is_empty(), "{} level {level}: {errors:?}", c.class.id);
        }
    }
}

#[test]
fn illegal_choices_are_refused_with_what_to_change() {
    let content = content();
    let classes = content.classes();
    let hexer = classes.iter().find(|c| c.class.id == "hexer").unwrap();
    let wand = classes.iter().find(|c| c.class.id == "wandslinger").unwrap();
    let mut a = legal(wand, 1);
    a.implement = "staff".into();
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("implement: a Wandslinger must use wand") && e.contains("K-IMP-13"), "{e}");
    let mut a = legal(hexer, 1);
    a.powers.push(a.powers[0].clone());
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("is chosen twice"), "{e}");
    let mut a = legal(hexer, 1);
    a.powers.push("victimize".into()); // a level 3 encounter at level 1
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("Victimize is chosen at level 3, not 1"), "{e}");
    let mut a = legal(hexer, 1);
    a.powers.pop();
    let e = check_athlete(&a, &content).join("\n");
    // K-PROG-1: level 1 brings the class's powers to choose.
    assert!(e.contains("level 1 grants") && e.contains("choose from"), "{e}");
    // K-PROG-3: level 3 brings an Advanced Implement.
    let mut a = legal(hexer, 3);
    a.advanced_implement = None;
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("advanced_implement") && e.contains("K-AIMP-1"), "{e}");
    let mut a = legal(hexer, 3);
    a.advanced_implement = Some("multi-sword".into());
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("Multi-Sword is a sword") && e.contains("K-AIMP-1"), "{e}");
    // K-PROG-7: the book's levels are 1-6.
    let mut a = legal(hexer, 7);
    a.level = 7;
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("outside 1-6"), "{e}");
    let mut a = legal(hexer, 2);
    a.role_powers.clear();
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("role_powers: level 2 grants 1"), "{e}");
    // K-PROG-6: level 6 brings a second role encounter power.
    let mut a = legal(hexer, 6);
    a.role_powers.truncate(1);
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("role_powers: level 6 grants 2"), "{e}");
    // K-CHAR-2: the specialization belongs to the role.
    let mut a = legal(hexer, 1);
    a.specialization = "sniper".into();
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("\"sniper\" is not a leader specialization") && e.contains("tactician"), "{e}");
    // K-PROG-2: the role encounter power comes from the athlete's role.
    let mut a = legal(hexer, 2);
    a.role_powers = vec!["the-slow-zone".into()];
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("not a leader encounter power") && e.contains("mass-heal"), "{e}");
    // K-AIMP-1: Blasters may not take the Multi-Staff.
    let staff = classes.iter().find(|c| c.class.implements.iter().any(|i| i == "staff")).unwrap();
    let mut a = legal(staff, 3);
    a.implement = "staff".into();
    a.role = "striker".into();
    a.specialization = "blaster".into();
    a.role_powers = vec!["lets-end-this".into()];
    a.advanced_implement = Some("multi-staff".into());
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("multi-staff cannot be taken by a blaster"), "{e}");
}

// The card shows the role's boost for the athlete's level and the powers its role grants.
#[test]
fn the_card_lists_role_boost_and_role_powers() {
    let content = content();
    let classes = content.classes();
    let a = legal(&classes[0], 4);
    assert!(check_athlete(&a, &content).is_empty(), "{:?}", check_athlete(&a, &content));
    let card = fray_kazzam::content::builder::card(&a, &content);
    assert!(
        card.contains("Role Boost: On an attack roll of 3-6, one ally in your line of sight regains 3 HP"),
        "{card}"
    );
    assert!(card.contains("role power: Tactics") && card.contains("role power: Hit Him!"), "{card}");
}

#[test]
fn a_team_repeating_a_role_or_class_names_file_line_and_field() {
    let text = "[[athlete]]\nname = \"A\"\nclass = \"hexer\"\nrole = \"leader\"\nspecialization = \"x\"\nimplement = \"wand\"\nlevel = 1\n\n[[athlete]]\nname = \"B\"\nclass = \"hexer\"\nrole = \"leader\"\nspecialization = \"y\"\nimplement = \"wand\"\nlevel = 1\n";
    let e = check_file(&content(), "team.toml", text).unwrap_err().join("\n");
    assert!(e.contains("team.toml:12: athlete[1] (B).role: A already plays leader") && e.contains("K-FMT-1"), "{e}");
    assert!(e.contains("team.toml:11: athlete[1] (B).class: A is already a hexer"), "{e}");
    // Each problem points at its field's own line; one about a field the file leaves out
    // (B at level 3 with no advanced implement) at the athlete's table header.
    assert!(e.contains("team.toml:5: athlete[0] (A).specialization: \"x\" is not a leader specialization"), "{e}");
    let e =
        check_file(&content(), "team.toml", &text.replacen("level = 1\n", "level = 3\n", 2)).unwrap_err().join("\n");
    assert!(e.contains("team.toml:9: athlete[1] (B).advanced_implement: level 3 grants"), "{e}");
    assert!(e.contains("athlete[1] (B).class: A is already a hexer") && e.contains("K-CHAR-1"), "{e}");
    let e = check_file(&content(), "team.toml", "[[athlete]]\nname = 3\n").unwrap_err().join("\n");
    assert!(e.contains("team.toml") && e.contains("line 2"), "{e}");
}

#[test]
fn built_units_carry_chosen_and_automatic_features() {
    let home = include_str!("../../../../examples/kazzam/team-flotsam.toml");
    let away = include_str!("../../../../examples/kazzam/team-jetsam.toml");
    let setup = fray_kazzam::content::builtin::team_setup(
        &content(),
        ("team-flotsam.toml", home),
        ("team-jetsam.toml", away),
        fray_kazzam::engine::options::TableOptions::default(),
    )
    .unwrap();
    let porter = setup.units.iter().find(|(u, _)| u.class.as_deref() == Some("porter")).unwrap();
    assert_eq!(porter.0.features, vec!["portal-brawler".to_string()]);
    let wm = setup.units.iter().find(|(u, _)| u.class.as_deref() == Some("wardmaster")).unwrap();
    assert!(wm.0.features.contains(&"wardmaster-special-ward".to_string()), "{:?}", wm.0.features);
    assert!(wm.0.features.contains(&"motile-ward".to_string()), "{:?}", wm.0.features);
    let hexer = setup.units.iter().find(|(u, _)| u.class.as_deref() == Some("hexer")).unwrap();
    assert!(hexer.0.features.contains(&"duelist".to_string()));
    let porter_id = porter.0.id.clone();
    let state = fray_kazzam::engine::setup::build(setup).unwrap();
    let u = state.find_unit(&porter_id).unwrap();
    assert!(state.has_feature(u, fray_kazzam::classes::features::Feature::PortalBrawler));
}

#[test]
fn a_shivering_sword_names_its_spells_in_force() {
    let ok = include_str!("../../../../examples/kazzam/shivering-sword.toml");
    let cards = check_file(&content(), "shivering-sword.toml", ok).unwrap().join("\n");
    assert!(cards.contains("Whirling (learned, in force at the start)"), "{cards}");
    let bad = ok.replace(
        "in_force = [\"shivering-sword-whirling\", \"long-arm\"]",
        "in_force = [\"focused-blade\", \"duelist\"]",
    );
    let e = check_file(&content(), "s.toml", &bad).unwrap_err().join("\n");
    // The line is the field's own (in_force on line 13), not the athlete's table header.
    assert!(e.contains("s.toml:13: athlete[0] (Pim Arrow).in_force: \"focused-blade\" is not learned"), "{e}");
    assert!(e.contains("in_force: \"duelist\" is not a Blade Enchantment or Self-Charm"), "{e}");
    assert!(e.contains("in_force: name 1 learned self-charm feature(s)"), "{e}");
    let units =
        fray_kazzam::content::builder::team_units(&content(), "s.toml", ok, "red", &[fray_core::grid::Pos::new(0, 0)])
            .unwrap();
    assert_eq!(units[0].features, vec!["shivering-sword-whirling".to_string(), "long-arm".to_string()]);
    assert_eq!(units[0].learned.len(), 4);
}

/// The Tamer's summons: one per summon level, two with Collector (or Completionist Collector
/// alone), three with both (L1681, L1821); a Command comes only with its summon.
#[test]
fn a_tamer_takes_as_many_summons_as_its_collector_features_allow() {
    let content = content();
    let classes = content.classes();
    let tamer = classes.iter().find(|c| c.class.id == "tamer").unwrap();
    let mut a = legal(tamer, 5);
    let summons = ["summon-spitting-tree", "summon-flame-pig", "summon-scalehound"];
    a.powers.retain(|p| !summons.contains(&p.as_str()));
    a.features.retain(|f| !f.contains("collector"));
    a.powers.push(summons[0].into());
    a.powers.push(summons[1].into());
    let e = check_athlete(&a, &content).join("\n");
    assert!(e.contains("2 summons chosen at level 1; a Tamer takes 1"), "{e}");
    a.features.push("tamer-collector".into());
    a.features.retain(|f| f != "tamer-mass-conjuror" && f != "tamer-advanced-commander");
    a.features.retain(|f| f != "tamer-conjuror" && f != "tamer-commander");
    a.features.push("tamer-completionist-collector".into());
    a.powers.push(summons[2].into());
    let e = check_athlete(&a, &content).join("\n");
    assert!(!e.contains("summons chosen"), "{e}");
    let granted = fray_kazzam::content::builder::power_ids(&a, &content);
    assert!(
        granted.iter().any(|p| p == "hissing-howl") && !granted.iter().any(|p| p == "sudden-eviction"),
        "{granted:?}"
    );
}

/// Twin Enchantments (shivering-sword-twin-enchantments, L1164, K-PROG-5): at level 5 a third
/// Blade Enchantment is learned and two are in force together; without it, one.
#[test]
fn twin_enchantments_put_two_blade_enchantments_in_force() {
    let content = content();
    let classes = content.classes();
    let sword = classes.iter().find(|c| c.class.id == "shivering-sword").unwrap();
    let mut a = legal(sword, 5);
    a.features.retain(|f| f != "shivering-sword-twin-charms");
    if !a.features.iter().any(|f| f == "shivering-sword-twin-enchantments") {
        a.features.push("shivering-sword-twin-enchantments".into());
    }
    let enchantments = ["sword-hold", "shivering-sword-whirling", "guardless-blade"];
    a.features.retain(|f| !enchantments.contains(&f.as_str()) && f != "status-thief" && f != "focused-blade");
    a.features.extend(enchantments.iter().map(|s| s.to_string()));
    a.in_force.retain(|f| !enchantments.contains(&f.as_str()) && f != "status-thief" && f != "focused-blade");
    a.in_force.extend(["shivering-sword-whirling".to_string(), "guardless-blade".to_string()]);
    let errors = check_athlete(&a, &content);
    assert!(errors.is_empty(), "two in force with Twin Enchantments: {errors:?}");
    // Without the twin feature (Twin Charms instead), one enchantment in force and two learned.
    let mut b = a.clone();
    for f in &mut b.features {
        if f == "shivering-sword-twin-enchantments" {
            *f = "shivering-sword-twin-charms".into();
        }
    }
    let e = check_athlete(&b, &content).join("\n");
    assert!(
        e.contains("3 blade-enchantment features learned; 2 at most without shivering-sword-twin-enchantments"),
        "{e}"
    );
    assert!(e.contains("in_force: name 1 learned blade-enchantment feature(s) in force at the start (2 named)"), "{e}");
}

// Content checks, moved here from the library's unit tests (the library has `test = false`).

#[test]
fn every_played_feature_is_in_the_class_files() {
    use fray_kazzam::classes::features::{Feature, PLAYED};
    let content = content();
    for (id, f) in PLAYED {
        assert!(content.features().iter().any(|x| x == id), "{id} is not a feature in content/kazzam/classes");
        assert_eq!(Feature::parse(id, &content), Some(*f));
        assert_eq!(f.id(&content), *id);
    }
}

// The compiled-in stat blocks load, every face 1-6 has an action, and every action is a power.
#[test]
fn the_stat_blocks_load_and_become_powers() {
    use fray_kazzam::rules::creeps::CreepType;
    let content = content();
    let defs = content.creeps();
    assert!(defs.iter().any(|c| c.id == "guardian-bear" && c.kind == CreepType::Elite));
    let powers = content.builtin_powers();
    for c in defs {
        for f in 1..=6 {
            let i = c.action_for(f).unwrap();
            assert!(powers.find(&c.power_id(i)).is_some(), "{} has no power", c.power_id(i));
        }
    }
}

// K-ROLE-1, K-CHAR-2: five roles of four specializations each.
#[test]
fn five_roles_of_four_specializations() {
    use fray_kazzam::content::roles::ENCOUNTER_GROUP;
    let content = content();
    let f = content.roles();
    assert_eq!(f.role.len(), 5);
    for r in &f.role {
        assert_eq!(f.specialization.iter().filter(|s| s.role == r.id).count(), 4, "{}", r.id);
        // K-PROG-2/6: four encounter powers to choose from at levels 2 and 6.
        let enc =
            f.power.iter().filter(|p| p.role.as_deref() == Some(&r.id) && p.group.as_deref() == Some(ENCOUNTER_GROUP));
        assert_eq!(enc.count(), 4, "{}", r.id);
    }
    // Every Defender has Defender's Mark plus its specialization's reaction.
    let got: Vec<_> = f.granted("defender", "smasher").map(|p| p.id.as_str()).collect();
    assert!(got.contains(&"defenders-mark") && got.iter().any(|p| p.contains("smasher")), "{got:?}");
}

/// Rival teams (§5, rulings "Rival teams"): a stat block's own version of a class power stands in
/// for it in play (Hyun Lee's Hurl Flask, Ariel Steel's Ward Burst); `variants` is refused outside
/// an NPC team and for a power the athlete does not have.
#[test]
fn a_rival_teams_printed_powers_replace_the_class_powers() {
    let content = content();
    let kishanta = fray_kazzam::content::teams::builtin("kishanta").unwrap();
    let driannis = fray_kazzam::content::teams::builtin("driannis-3").unwrap();
    let setup = fray_kazzam::content::builtin::team_setup(
        &content,
        ("kishanta", kishanta),
        ("driannis-3", driannis),
        fray_kazzam::engine::options::TableOptions::default(),
    )
    .unwrap();
    let powers =
        |name: &str| setup.units.iter().find(|(u, _)| u.name.as_deref() == Some(name)).unwrap().0.powers.clone();
    let hyun = powers("Hyun Lee");
    assert!(hyun.contains(&"hurl-flask-hyun-lee".to_string()) && !hyun.contains(&"hurl-flask".to_string()), "{hyun:?}");
    let ariel = powers("Ariel Steel");
    assert!(
        ariel.contains(&"ward-burst-ariel-steel".to_string()) && !ariel.contains(&"ward-burst".to_string()),
        "{ariel:?}"
    );
    // A power the class grants without a pick is replaced too (Raqua Yalaaya's Staff Trap).
    let raqua = powers("Raqua Yalaaya");
    assert!(
        raqua.contains(&"staff-trap-raqua-yalaaya".to_string()) && !raqua.contains(&"staff-trap".to_string()),
        "{raqua:?}"
    );
    let obi = powers("Obi Francis");
    assert!(
        obi.contains(&"ripping-tides-obi-francis".to_string()) && !obi.contains(&"ripping-tides".to_string()),
        "{obi:?}"
    );
    // Not an NPC team: refused.
    let player = kishanta.replace("npc = true", "npc = false");
    let e = check_file(&content, "k.toml", &player).unwrap_err().join("\n");
    assert!(e.contains("variants: a stat block's versions of powers are for rival teams"), "{e}");
    // A version of a power the athlete does not have, and an id that is no version at all.
    let wrong = kishanta
        .replace("variants = [\"hurl-flask-hyun-lee\"]", "variants = [\"ward-burst-ariel-steel\", \"hurl-flask\"]");
    let e = check_file(&content, "k.toml", &wrong).unwrap_err().join("\n");
    assert!(
        e.contains("\"ward-burst-ariel-steel\" stands for \"ward-burst\", which this athlete does not have"),
        "{e}"
    );
    assert!(e.contains("\"hurl-flask\" is not a stat block's version of a power"), "{e}");
}

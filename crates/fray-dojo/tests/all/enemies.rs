//! The enemy chapter's data: every force reads, names only content that exists, and each enemy
//! passes the creation checks when fielded (D-EN-*).

use fray_core::table::TeamText;
use fray_dojo::enemies;
use fray_dojo::state::Kind;
use fray_dojo::{Dojo, FightSetup};

fn fight(enemies: &str) -> Result<fray_dojo::State, Vec<String>> {
    let setup = FightSetup {
        enemies: Some(TeamText { path: "side.toml".into(), text: format!("enemies = [{enemies}]\n") }),
        ..Default::default()
    };
    Dojo::builtin().build(&setup).map_err(|e| e.0)
}

#[test]
fn the_enemy_file_names_only_known_content() {
    let content = Dojo::builtin().content().unwrap();
    let file = &content.enemies;
    assert_eq!(enemies::check(file, &content), Vec::<String>::new());
    // `--away NAME` knows every force by name.
    let named: Vec<&str> = enemies::FORCE_SIDES.iter().map(|(n, _)| *n).collect();
    let ids: Vec<&str> = file.force.iter().map(|f| f.id.as_str()).collect();
    assert_eq!(named, ids);
    // Thirteen factions of two Stooge groups, two Warriors and a Boss (rules/dojo.md §2.6), then
    // the Unique Enemies (eight Warriors, one a Boss Archetype, and four Bosses) and the seven
    // Backer Bosses.
    assert_eq!(file.force.len(), 15);
    let unique = &file.force[13];
    assert_eq!(unique.enemy.iter().filter(|e| e.kind == Kind::Warrior).count(), 8);
    assert_eq!(unique.enemy.iter().filter(|e| e.kind == Kind::Boss).count(), 4);
    let mut held: Vec<&str> =
        unique.enemy.iter().filter(|e| e.kind == Kind::Warrior).filter_map(|e| e.archetype.as_deref()).collect();
    held.sort_unstable();
    assert_eq!(held, ["blur", "giant", "immortal", "necromancer", "swarm", "tank", "untouchable", "vehicle"]);
    assert_eq!(file.force[14].enemy.len(), 7);
    assert!(file.force[14].enemy.iter().all(|e| e.kind == Kind::Boss));
    for f in &file.force[..13] {
        let kinds: Vec<Kind> = f.enemy.iter().map(|e| e.kind).collect();
        assert_eq!(kinds, [Kind::Stooges, Kind::Stooges, Kind::Warrior, Kind::Warrior, Kind::Boss], "{}", f.id);
    }
}

#[test]
fn every_enemy_is_fielded_legally() {
    let content = Dojo::builtin().content().unwrap();
    for e in content.enemies.enemies() {
        let s = fight(&format!("{:?}", e.id)).unwrap_or_else(|er| panic!("{}: {er:?}", e.id));
        let u = s.find(&e.id).unwrap();
        assert_eq!(s.u(u).kind, e.kind);
        // D-EN-4: a Stooge group counts a member a die.
        if e.kind == Kind::Stooges {
            assert!(enemies::members(&s, u) >= 3, "{}", e.id);
        }
    }
}

#[test]
fn a_small_army_has_eight_members() {
    // D-EN-4: Ten Thousand Silver: Shadow's six dice and Ten Thousand's two (L5755).
    let s = fight("\"a-small-army\"").unwrap();
    assert_eq!(enemies::members(&s, s.find("a-small-army").unwrap()), 8);
    let s = fight("\"drones\"").unwrap();
    assert_eq!(enemies::members(&s, s.find("drones").unwrap()), 6);
}

#[test]
fn bad_side_files_say_what_is_wrong() {
    let e = fight("\"nobody\"").unwrap_err();
    assert!(e[0].contains("side.toml") && e[0].contains("nobody"), "{e:?}");
    let setup = FightSetup {
        enemies: Some(TeamText { path: "side.toml".into(), text: "enemies = [\"angel\"]\nuneven = \"odd\"\n".into() }),
        ..Default::default()
    };
    let e = Dojo::builtin().build(&setup).unwrap_err().0;
    assert!(e.iter().any(|x| x.contains("uneven")), "{e:?}");
}

#[test]
fn misprinted_costs_come_from_the_style_and_form() {
    // D-G-21: the Bodyguards' Eyes Open is the Style's 4+ (printed 3+, L4736); Agitha's Focus is
    // Zen's 3+ or 7+ (printed 2+ or 6+, L6171).
    let s = fight("\"bodyguards\", \"agitha-crystal\"").unwrap();
    let costs = |u: &str| -> Vec<(String, String)> {
        let u = s.find(u).unwrap();
        fray_dojo::rules::actions_of(&s, u).iter().map(|(_, a)| (a.id.clone(), a.cost.to_string())).collect()
    };
    assert!(costs("bodyguards").contains(&("eyes-open".into(), "4+".into())), "{:?}", costs("bodyguards"));
    let s2 = {
        let mut s2 = s.clone();
        let u = s2.find("agitha-crystal").unwrap();
        s2.units[u as usize].stance = Some(1); // Crying World
        s2
    };
    let u = s2.find("agitha-crystal").unwrap();
    let focus: Vec<String> = fray_dojo::rules::actions_of(&s2, u)
        .iter()
        .filter(|(_, a)| a.id == "focus")
        .map(|(_, a)| a.cost.to_string())
        .collect();
    assert_eq!(focus, ["3+/7+"]);
}

/// §2.4, D-EN-2, D-EN-11: Boss Archetypes are for Bosses and Warriors; a Boss of one has a Stance
/// of one of the Styles it lists; a one-Boss Style (§2.5) is no hero's.
#[test]
fn boss_archetypes_are_for_enemies_only() {
    let content = Dojo::builtin().content().unwrap();
    assert_eq!(content.enemies.boss_archetype.len(), 9);
    let unit = |kind: &str, stances: &str, archetype: &str, bars: u8| {
        format!(
            "name = \"t\"\n[map]\nrows = [\"......\", \"......\"]\n[[unit]]\nid = \"ada\"\nside = \"heroes\"\nkind = \"hero\"\nat = [0, 0]\nstances = [\"zen\"]\n[[unit]]\nid = \"x\"\nside = \"enemies\"\nkind = \"{kind}\"\nbars = {bars}\nat = [5, 1]\nstances = [{stances}]\narchetypes = [\"{archetype}\"]\n"
        )
    };
    let build = |text: String| {
        let setup = FightSetup { map: Some(TeamText { path: "f.toml".into(), text }), ..Default::default() };
        Dojo::builtin().build(&setup).map_err(|e| e.0.join("\n"))
    };
    // A Tank Boss needs Artillery, Aura, Caged or Unbreakable.
    let e = build(unit("boss", "\"heroic+iron\", \"halcyon+song\", \"elder+power\"", "tank", 2)).unwrap_err();
    assert!(e.contains("unit x: field `archetypes`") && e.contains("D-EN-11"), "{e}");
    assert!(build(unit("boss", "\"heroic+iron\", \"aura+song\", \"elder+power\"", "tank", 2)).is_ok());
    // A Warrior may take any Boss Archetype, its Style aside (D-EN-2).
    assert!(build(unit("warrior", "\"heroic+iron\"", "blur", 1)).is_ok());
    // A hero may not.
    let text = unit("warrior", "\"heroic+iron\"", "blur", 1)
        .replace("stances = [\"zen\"]", "stances = [\"stunning+zen\"]\narchetypes = [\"tank\"]");
    let e = build(text).unwrap_err();
    assert!(e.contains("unit ada: field `archetypes`: a Boss Archetype is for Bosses and Warriors"), "{e}");
    assert!(e.contains("unit ada: field `stances`: that Style belongs to one Boss"), "{e}");
}

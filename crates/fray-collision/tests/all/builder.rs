//! The character builder: the guide's worked example card field by field (its §2.4 reading), and
//! each creation rule C-CREATE-1 to C-CREATE-38 with legal and illegal characters; an illegal
//! character gets every violation at once, each with its line, field, rule and what to change.

use fray_collision::builder::{Card, Checked, Stats, check_file};
use fray_collision::content::{Content, FILES};

fn content() -> Content {
    Content::builtin().expect("content")
}

fn check(text: &str) -> Result<Checked, Vec<String>> {
    check_file(&content(), "t.toml", text)
}

/// One character named X with these option lines.
fn one(body: &str) -> String {
    format!("[[character]]\nname = \"X\"\n{body}\n")
}

fn card(body: &str) -> Card {
    match check(&one(body)) {
        Ok(mut g) => g.cards.remove(0),
        Err(e) => panic!("illegal: {e:#?}"),
    }
}

fn errors(text: &str) -> Vec<String> {
    match check(text) {
        Ok(g) => panic!("legal: {g:#?}"),
        Err(e) => e,
    }
}

/// The single error of a character file, which must name `rule`.
fn refused(body: &str, rule: &str) -> String {
    let e = errors(&one(body));
    assert!(e.iter().any(|x| x.contains(&format!("({rule}")) || x.contains(&format!(" {rule})"))), "{rule}: {e:#?}");
    e.join("\n")
}

const EXAMPLE: &str = include_str!("../../../../examples/collision/robed-elf-warrior.toml");

/// C-CREATE-13, C-CREATE-16, C-CREATE-21 to -23, -25, -27, -34, -35: the guide's Robed Elf
/// Warrior (L88-143), field by field.
#[test]
fn the_worked_example_reproduces_field_by_field() {
    let g = check(EXAMPLE).expect("the worked example is legal");
    assert_eq!(g.cards.len(), 1);
    let k = &g.cards[0];
    assert_eq!(k.name, "Robed Elf Warrior");
    assert_eq!(k.race, "Red Elf");
    assert_eq!(k.tarot, "6 of Cups");
    assert_eq!(k.points, 75);
    assert_eq!(k.values, ["Diplomacy", "Conquest", "Sorcery"]);
    assert_eq!(k.stats, Stats { def: 7, arm: 7, tuf: 2, end: 4, mana: 4, comm: 5, mv: 5, att: 2, str: 2, spow: 0 });
    assert_eq!(k.weapons.len(), 1);
    let w = &k.weapons[0];
    assert_eq!(w.name, "Sabre");
    assert_eq!(w.enchantment.as_deref(), Some("Shadow"));
    assert_eq!(w.ec, 2);
    assert_eq!(w.kind, "Dark");
    assert_eq!((w.w_att, w.w_pow), (4, 3));
    assert_eq!(w.reach, "1");
    assert_eq!(w.crit, ["Injury+2"]);
    assert_eq!(w.special, ["Sharp", "On Hit: Hex 1"]);
    assert_eq!(w.hands, 1);
    assert_eq!(k.accessory, Some(("Shield".to_string(), 1)));
    assert_eq!(k.armour.as_deref(), Some("Scale Armor"));
    assert_eq!(k.armour_enchantment, None);
    assert_eq!(k.effects, ["Vicious", "Block 2 (RE) 1E", "Check 2M (Fear)", "Majesty (RE) 1E (Fear)"]);
    assert_eq!(k.restrictions, None);
    assert_eq!(k.skills, (2, 2));
    let costs: Vec<(&str, u32, Option<&str>)> =
        k.costs.iter().map(|c| (c.name.as_str(), c.points, c.value.as_deref())).collect();
    assert_eq!(
        costs,
        [
            ("Red Elf", 25, Some("Conquest")),
            // The guide takes the tarot from Conquest (L104).
            ("6 of Cups", 21, Some("Conquest")),
            ("Sabre", 6, Some("Diplomacy")),
            ("Shadow", 4, Some("Sorcery")),
            ("Scale Armor", 10, Some("Conquest")),
            ("Shield", 3, None),
            ("Check", 4, Some("Conquest")),
            ("Majesty", 2, Some("Conquest")),
        ]
    );
    assert_eq!(g.points, 75);
}

/// The card after race and tarot only, as the guide's card image shows it (L106-109).
#[test]
fn the_worked_example_after_race_and_tarot_matches_the_card_image() {
    let k = card("race = \"Red Elf\"\ntarot = \"6 of Cups\"");
    assert_eq!(k.points, 46);
    assert_eq!((k.stats.def, k.stats.mana, k.stats.comm, k.stats.mv), (8, 4, 5, 5));
    assert_eq!((k.stats.att, k.stats.str, k.stats.spow), (2, 2, 0));
    assert_eq!((k.stats.arm, k.stats.tuf, k.stats.end), (4, 2, 4));
    assert_eq!(k.effects, ["Vicious"]);
    assert_eq!(k.values, ["Conquest"]);
}

#[test]
fn c_create_2_a_character_has_at_most_three_values() {
    // Fae (Chivalry), Sabre (Diplomacy), Scepter (Mysticism), Pistol (Liberty).
    let e = refused(
        "race = \"Fae\"\ntarot = \"2 of Rods\"\nweapons = [\"Sabre\", \"Scepter\"]\naccessory = \"Buckler\"",
        "C-CREATE-2",
    );
    assert!(e.contains("4 values") && e.contains("Liberty (Buckler)"), "{e}");
    let k = card("race = \"Fae\"\ntarot = \"2 of Rods\"\nweapons = [\"Sabre\", \"Scepter\"]");
    assert_eq!(k.values, ["Chivalry", "Diplomacy", "Mysticism"]);
}

#[test]
fn c_create_3_a_battle_group_uses_at_most_three_values() {
    let text = "[group]\nname = \"Mixed\"\n\n[[character]]\nname = \"A\"\nrace = \"Fae\"\ntarot = \"2 of Cups\"\n\n[[character]]\nname = \"B\"\nrace = \"Wisp\"\ntarot = \"2 of Cups\"\n\n[[character]]\nname = \"C\"\nrace = \"Goblin\"\ntarot = \"2 of Cups\"\n\n[[character]]\nname = \"D\"\nrace = \"Dwarf\"\ntarot = \"2 of Cups\"\n";
    let e = errors(text);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].starts_with("t.toml:1: group.values") && e[0].contains("(C-CREATE-3)"), "{}", e[0]);
    assert!(e[0].contains("Liberty (D)"), "{}", e[0]);
    let three = text.rsplit_once("\n\n[[character]]\nname = \"D\"").unwrap().0;
    let g = check(three).unwrap();
    assert_eq!(g.values, ["Chivalry", "Diplomacy", "Mysticism"]);
}

#[test]
fn c_create_4_values_come_from_the_options_and_a_declared_list_must_match() {
    assert_eq!(
        card("race = \"Orc\"\ntarot = \"2 of Swords\"\nweapons = [\"Pistol\"]").values,
        ["Mysticism", "Liberty"]
    );
    let e = refused("race = \"Orc\"\ntarot = \"2 of Swords\"\nvalues = [\"Liberty\"]", "C-CREATE-4");
    assert!(e.contains("Orc comes only from Mysticism; add Mysticism to values"), "{e}");
    assert!(e.contains("Liberty supplies none of this character's options; remove it"), "{e}");
    let e = refused("race = \"Orc\"\ntarot = \"2 of Swords\"\nvalues = [\"Mysticism\", \"Valour\"]", "C-CREATE-1");
    assert!(e.contains("\"Valour\" is not a value"), "{e}");
}

/// C-CREATE-5: universal options bring no value.
#[test]
fn c_create_5_universal_options_bring_no_value() {
    let k = card(
        "race = \"Human\"\ntarot = \"3 of Swords\"\nweapons = [\"Long sword\"]\narmour = \"Chain\"\nskills = [\"Parry\", \"Shrug\"]",
    );
    assert!(k.values.is_empty());
    // It fits a group that already uses three values.
    let text = format!(
        "{}\n[[character]]\nname = \"Y\"\nrace = \"Fae\"\ntarot = \"2 of Rods\"\nweapons = [\"Sabre\", \"Scepter\"]\n",
        one("race = \"Human\"\ntarot = \"2 of Cups\"")
    );
    assert_eq!(check(&text).unwrap().values, ["Chivalry", "Diplomacy", "Mysticism"]);
}

#[test]
fn c_create_6_an_option_of_two_values_takes_the_one_that_fits() {
    // The race's value, when it offers the tarot.
    let k = card("race = \"Demon\"\ntarot = \"4 of Swords\"");
    assert_eq!(k.values, ["Brutality"]);
    let k = card("race = \"Angel\"\ntarot = \"4 of Swords\"");
    assert_eq!(k.values, ["Chivalry"]);
    // A declared value settles it.
    let k = card("race = \"Human\"\ntarot = \"4 of Swords\"\nvalues = [\"Brutality\"]");
    assert_eq!(k.values, ["Brutality"]);
    // Otherwise a value the group uses.
    let text = format!(
        "{}\n[[character]]\nname = \"Y\"\nrace = \"Thrall\"\ntarot = \"2 of Swords\"\n",
        one("race = \"Human\"\ntarot = \"4 of Swords\"\narmour = \"Heavy Plate\"")
    );
    let g = check(&text).unwrap();
    assert_eq!(g.cards[0].values, ["Brutality"]);
    assert_eq!(g.values, ["Brutality"]);
    // A declared list that offers neither is refused.
    let e = refused("race = \"Human\"\ntarot = \"4 of Swords\"\nvalues = [\"Sorcery\"]", "C-CREATE-6");
    assert!(e.contains("4 of Swords is offered by Chivalry or Brutality"), "{e}");
}

#[test]
fn c_create_7_exactly_one_race() {
    let e = refused("tarot = \"2 of Cups\"", "C-CREATE-7");
    assert!(e.contains("t.toml:1: character[0] (X).race: missing"), "{e}");
    let e = refused("race = [\"Human\", \"Orc\"]\ntarot = \"2 of Cups\"", "C-CREATE-7");
    assert!(e.contains("t.toml:3:") && e.contains("2 given (Human, Orc)"), "{e}");
    let e = refused("race = \"Red Elff\"\ntarot = \"2 of Cups\"", "C-CREATE-7");
    assert!(e.contains("did you mean \"Red Elf\"?"), "{e}");
}

#[test]
fn c_create_8_race_effects_go_on_the_card() {
    assert_eq!(card("race = \"Ogre\"\ntarot = \"2 of Cups\"").effects, ["Skittish", "Massive"]);
    assert_eq!(card("race = \"Brute\"\ntarot = \"2 of Cups\"").effects, ["Leaping Move", "Massive"]);
}

#[test]
fn c_create_9_exactly_one_minor_arcana() {
    let e = refused("race = \"Human\"\ntarot = \"The Tower\"", "C-CREATE-9");
    assert!(e.contains("The Tower is a Major Arcana"), "{e}");
    refused("race = \"Human\"\ntarot = \"Strength\"", "C-CREATE-9");
    refused("race = \"Human\"", "C-CREATE-9");
    refused("race = \"Human\"\ntarot = [\"2 of Cups\", \"3 of Cups\"]", "C-CREATE-9");
}

#[test]
fn c_create_10_ranks_are_2_to_10_and_ace_is_11() {
    refused("race = \"Human\"\ntarot = \"Knight of Cups\"", "C-CREATE-10");
    refused("race = \"Human\"\ntarot = \"1 of Cups\"", "C-CREATE-10");
    // Ace counts as rank 11: rank 8 enchantments are open to it.
    let k = card(
        "race = \"Angel\"\ntarot = \"Ace of Swords\"\nweapons = [{ name = \"Blade\", enchantment = \"Unicorn\" }]",
    );
    assert_eq!(k.weapons[0].reach, "2");
}

#[test]
fn c_create_11_universal_tarots_are_2_and_3_and_value_tarots_4_to_ace() {
    assert!(card("race = \"Human\"\ntarot = \"3 of Rods\"").values.is_empty());
    assert_eq!(card("race = \"Human\"\ntarot = \"4 of Rods\"").values, ["Mysticism"]);
    assert_eq!(card("race = \"Shambler\"\ntarot = \"4 of Rods\"").values, ["Sorcery"]);
    assert_eq!(card("race = \"Human\"\ntarot = \"9 of Coins\"").values, ["Liberty"]);
}

#[test]
fn c_create_12_rank_8_and_above_need_a_game_of_250_points() {
    let k = card("race = \"Human\"\ntarot = \"8 of Cups\"");
    assert_eq!(k.restrictions.as_deref(), Some("250+"));
    assert_eq!(card("race = \"Human\"\ntarot = \"7 of Cups\"").restrictions, None);
    let small = format!("[group]\nallotment = 200\n\n{}", one("race = \"Human\"\ntarot = \"8 of Cups\""));
    let e = errors(&small);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].starts_with("t.toml:7: character[0] (X).tarot:") && e[0].contains("(C-CREATE-12)"), "{}", e[0]);
    let large = small.replace("200", "250");
    assert_eq!(check(&large).unwrap().points, 20 + 28);
}

#[test]
fn c_create_13_tarot_bonuses_add_to_the_race() {
    let k = card("race = \"Goblin\"\ntarot = \"Ace of Rods\"");
    assert_eq!(k.stats, Stats { def: 10, arm: 4, tuf: 4, end: 4, mana: 8, comm: 1, mv: 4, att: 4, str: 1, spow: 4 });
    assert_eq!(k.points, 17 + 48);
}

#[test]
fn c_create_14_no_more_than_two_weapons() {
    assert!(card("race = \"Human\"\ntarot = \"2 of Cups\"").weapons.is_empty());
    let e =
        refused("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Dagger\", \"Dagger\", \"Bite\"]", "C-CREATE-14");
    assert!(e.contains("3 weapons (Dagger, Dagger, Bite)"), "{e}");
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Lightsaber\"]", "C-CREATE-14");
}

#[test]
fn c_create_15_weapons_and_accessory_use_two_hands_at_most() {
    let e =
        refused("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Pike\"]\naccessory = \"Shield\"", "C-CREATE-15");
    assert!(e.contains("t.toml:6: character[0] (X).accessory") && e.contains("3 hands (Pike 2, Shield 1)"), "{e}");
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Pike\", \"Dagger\"]", "C-CREATE-15");
    // Hand-free items fit beside a two-handed weapon.
    card("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Longbow\"]\naccessory = \"Jump Shoes\"");
    card("race = \"Beast\"\ntarot = \"2 of Cups\"\nweapons = [\"Bite\", \"Pike\"]\naccessory = \"Cloak of Wings\"");
    card("race = \"Dwarf\"\ntarot = \"2 of Cups\"\nweapons = [\"Dagger\", \"Mace\"]\naccessory = \"Buckler\"");
}

#[test]
fn c_create_16_att_goes_into_w_att_and_str_into_w_pow() {
    // Ogre (Att 0, Str 3) with 3 of Swords (Att+1, Str+1): Great Club 2/4 becomes 3/8.
    let k = card("race = \"Ogre\"\ntarot = \"3 of Swords\"\nweapons = [\"Great Club\"]");
    assert_eq!((k.weapons[0].w_att, k.weapons[0].w_pow), (3, 8));
    assert_eq!(k.weapons[0].crit, ["Stun", "Pow+2"]);
}

/// C-CREATE-17: the race reach bonus applies to every weapon.
#[test]
fn c_create_17_the_race_reach_bonus_applies_to_every_weapon() {
    let k = card("race = \"Great Folk\"\ntarot = \"2 of Cups\"\nweapons = [\"Spear\", \"Bow\"]");
    assert_eq!(k.weapons[0].reach, "3");
    assert_eq!(k.weapons[1].reach, "6+");
    assert_eq!(card("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Pike\"]").weapons[0].reach, "3");
}

/// C-CREATE-18: weapon points are added.
#[test]
fn c_create_18_weapon_points_are_added() {
    let k = card("race = \"Human\"\ntarot = \"2 of Cups\"\nweapons = [\"Long sword\"]");
    assert_eq!(k.points, 20 + 8);
}

/// C-CREATE-19: s pow weapons raise s pow.
#[test]
fn c_create_19_s_pow_weapons_raise_s_pow() {
    let base = card("race = \"Human\"\ntarot = \"2 of Rods\"").stats.spow;
    assert_eq!(card("race = \"Human\"\ntarot = \"2 of Rods\"\nweapons = [\"Staff\"]").stats.spow, base + 1);
    let k = card("race = \"Goblin\"\ntarot = \"2 of Rods\"\nweapons = [\"Staff\", \"Scepter\"]");
    assert_eq!(k.stats.spow, 2 + 2);
    assert!(k.weapons.iter().all(|w| w.special.is_empty()), "S-Pow+1 is spent on the stat");
}

#[test]
fn c_create_20_one_enchantment_per_weapon_from_its_minimum_rank() {
    let e = refused(
        "race = \"Angel\"\ntarot = \"3 of Swords\"\nweapons = [{ name = \"Blade\", enchantment = \"Bright\" }]",
        "C-CREATE-20",
    );
    assert!(e.contains("Bright needs a tarot of rank 4 or more; 3 of Swords is rank 3"), "{e}");
    card("race = \"Angel\"\ntarot = \"4 of Swords\"\nweapons = [{ name = \"Blade\", enchantment = \"Bright\" }]");
    refused(
        "race = \"Angel\"\ntarot = \"7 of Swords\"\nweapons = [{ name = \"Blade\", enchantment = \"Unicorn\" }]",
        "C-CREATE-20",
    );
    refused(
        "race = \"Angel\"\ntarot = \"7 of Swords\"\nweapons = [{ name = \"Blade\", enchantment = \"Glowing\" }]",
        "C-CREATE-20",
    );
}

#[test]
fn c_create_21_the_enchantment_type_replaces_mundane() {
    let k = card(
        "race = \"Demon\"\ntarot = \"4 of Swords\"\nweapons = [{ name = \"Mace\", enchantment = \"Flame\" }, \"Dagger\"]",
    );
    assert_eq!(k.weapons[0].kind, "Fire");
    assert_eq!(k.weapons[1].kind, "Mundane");
}

#[test]
fn c_create_22_enchantment_bonuses_specials_and_crits_join_the_weapon() {
    let k = card(
        "race = \"Dwarf\"\ntarot = \"8 of Coins\"\nweapons = [{ name = \"Pistol\", enchantment = \"Silver\" }, { name = \"Dagger\", enchantment = \"Rune\" }]",
    );
    // Pistol 0/3 + Att 2, Str 2 + Silver W-Att+1 W-Pow+1.
    assert_eq!((k.weapons[0].w_att, k.weapons[0].w_pow), (3, 6));
    assert_eq!(k.weapons[1].special, ["Multiattack", "On Hit: Drain 1 Mana"]);
    // Unicorn: reach +1, or +2 on a ranged weapon.
    let k = card(
        "race = \"Angel\"\ntarot = \"8 of Swords\"\nweapons = [{ name = \"Spear\", enchantment = \"Unicorn\" }, { name = \"Short Bow\", enchantment = \"Unicorn\" }]",
    );
    assert_eq!((k.weapons[0].reach.as_str(), k.weapons[1].reach.as_str()), ("3", "7+"));
    assert!(k.weapons[0].special.contains(&"Ignore Partial Cover".to_string()));
    let k = card(
        "race = \"Imp\"\ntarot = \"8 of Cups\"\nweapons = [{ name = \"Chain Whip\", enchantment = \"Adamantine\" }]",
    );
    // Chain Whip W-Pow 1, Imp Str 0, Adamantine W-Pow+2.
    assert_eq!(k.weapons[0].w_pow, 3);
    assert_eq!(k.points, 22 + 28 + 5 + 7);
}

/// C-CREATE-23: an enchantment may come from another value.
#[test]
fn c_create_23_an_enchantment_may_come_from_another_value() {
    let k =
        card("race = \"Human\"\ntarot = \"4 of Rods\"\nweapons = [{ name = \"Blade\", enchantment = \"Corrosive\" }]");
    assert_eq!(k.values, ["Mysticism", "Savagery"]);
}

#[test]
fn c_create_24_sharp_weapons_never_get_crit_slay() {
    let e = refused(
        "race = \"Shambler\"\ntarot = \"8 of Rods\"\nweapons = [{ name = \"Scythe\", enchantment = \"Bone\" }]",
        "C-CREATE-24",
    );
    assert!(e.contains("Scythe is Sharp"), "{e}");
    let k =
        card("race = \"Shambler\"\ntarot = \"8 of Rods\"\nweapons = [{ name = \"Halberd\", enchantment = \"Bone\" }]");
    assert_eq!(k.weapons[0].crit, ["Pow+2", "Slay"]);
}

#[test]
fn c_create_25_at_most_one_armour() {
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\narmour = [\"Chain\", \"Leather\"]", "C-CREATE-25");
    let k = card("race = \"Goblin\"\ntarot = \"2 of Rods\"\narmor = \"Cloth Armor\"");
    assert_eq!((k.stats.def, k.stats.arm), (9, 5));
    let k = card("race = \"Human\"\ntarot = \"2 of Cups\"\narmour = \"Heavy Plate\"");
    assert_eq!((k.stats.def, k.stats.arm, k.points), (4, 8, 20 + 14));
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\narmour = \"Mithril\"", "C-CREATE-25");
}

#[test]
fn c_create_26_an_armour_enchantment_needs_armour_and_rank() {
    let e = refused("race = \"Dwarf\"\ntarot = \"4 of Coins\"\narmour_enchantment = \"Rune\"", "C-CREATE-26");
    assert!(e.contains("wears none"), "{e}");
    refused(
        "race = \"Dwarf\"\ntarot = \"7 of Coins\"\narmour = \"Studded Leather\"\narmour_enchantment = \"Silver\"",
        "C-CREATE-26",
    );
    let k =
        card("race = \"Dwarf\"\ntarot = \"8 of Coins\"\narmour = \"Studded Leather\"\narmour_enchantment = \"Silver\"");
    assert!(k.effects.contains(&"Immune to Magic".to_string()));
    refused(
        "race = \"Dwarf\"\ntarot = \"8 of Coins\"\narmour = \"Chain\"\narmour_enchantment = [\"Silver\", \"Rune\"]",
        "C-CREATE-26",
    );
}

#[test]
fn c_create_27_at_most_one_accessory() {
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\naccessory = [\"Torch\", \"Jump Shoes\"]", "C-CREATE-27");
    let k = card("race = \"Human\"\ntarot = \"2 of Cups\"\naccessory = \"Lyre of Distraction\"");
    assert_eq!(k.effects, ["Skill+1", "Distract (RE) 2E"]);
    assert_eq!(k.points, 20 + 6);
}

/// C-CREATE-28: creation bonuses are applied once.
#[test]
fn c_create_28_creation_bonuses_are_applied_once() {
    let k = card("race = \"Human\"\ntarot = \"2 of Cups\"\naccessory = \"Cloak of Wings\"");
    assert_eq!(k.stats.mv, 2);
    assert_eq!(card("race = \"Human\"\ntarot = \"2 of Cups\"\naccessory = \"Horn of Command\"").stats.comm, 4);
    let quick =
        card("race = \"Wisp\"\ntarot = \"8 of Cups\"\narmour = \"Scale Armor\"\narmour_enchantment = \"Quick\"");
    assert_eq!(quick.stats.end, 5);
    let crystal =
        card("race = \"Goblin\"\ntarot = \"8 of Rods\"\narmour = \"Cloth Armor\"\narmour_enchantment = \"Crystal\"");
    assert_eq!(crystal.stats.def, 8 + 1 + 1);
    let adamantine =
        card("race = \"Imp\"\ntarot = \"8 of Cups\"\narmour = \"Scale Armor\"\narmour_enchantment = \"Adamantine\"");
    assert_eq!(adamantine.stats.arm, 4 + 3 + 1);
}

#[test]
fn c_create_29_the_tarot_caps_the_skills() {
    let e = refused(
        "race = \"Red Elf\"\ntarot = \"6 of Cups\"\nskills = [\"Check\", \"Majesty\", \"Look Out\"]",
        "C-CREATE-29",
    );
    assert!(e.contains("3 skills; 6 of Cups allows 2 (C-CREATE-29); remove 1"), "{e}");
    card("race = \"Red Elf\"\ntarot = \"7 of Cups\"\nskills = [\"Check\", \"Majesty\", \"Look Out\"]");
}

#[test]
fn c_create_30_skill_plus_one_races_take_one_more() {
    let k = card("race = \"Human\"\ntarot = \"2 of Swords\"\nskills = [\"Parry\", \"Shrug\"]");
    assert_eq!(k.skills, (2, 2));
    let e = refused(
        "race = \"Halfling\"\ntarot = \"2 of Swords\"\nskills = [\"Parry\", \"Shrug\", \"Power Attack\"]",
        "C-CREATE-30",
    );
    assert!(e.contains("2 of Swords allows 1 and Halfling adds one"), "{e}");
    refused("race = \"Orc\"\ntarot = \"2 of Swords\"\nskills = [\"Parry\", \"Shrug\"]", "C-CREATE-29");
}

#[test]
fn c_create_31_skills_are_optional_and_some_cost_nothing() {
    let k = card("race = \"Human\"\ntarot = \"2 of Swords\"\nskills = [\"Power Attack\", \"Parry\"]");
    assert_eq!(k.points, 20);
    assert_eq!(card("race = \"Human\"\ntarot = \"2 of Swords\"").skills, (0, 2));
}

#[test]
fn c_create_32_skill_tiers_follow_suit_and_rank() {
    let e = refused("race = \"Red Elf\"\ntarot = \"6 of Cups\"\nskills = [\"Counter Attack\"]", "C-CREATE-32");
    assert!(
        e.contains("Counter Attack is one of the Swords 4+ skills and needs a Swords tarot of rank 4 or more"),
        "{e}"
    );
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\nskills = [\"Parry\"]", "C-CREATE-32");
    refused("race = \"Angel\"\ntarot = \"7 of Swords\"\nskills = [\"Challenge\"]", "C-CREATE-32");
    refused("race = \"Angel\"\ntarot = \"3 of Swords\"\nskills = [\"Smite\"]", "C-CREATE-32");
    card("race = \"Angel\"\ntarot = \"8 of Swords\"\nskills = [\"Challenge\"]");
    // Any rank 4 or greater: any suit.
    let k = card("race = \"Human\"\ntarot = \"4 of Cups\"\nskills = [\"Smite\"]");
    assert_eq!(k.values, ["Chivalry", "Diplomacy"]);
    // A suit skill of a value: that suit, any rank (even a Universal 2 or 3).
    card("race = \"Human\"\ntarot = \"2 of Swords\"\nskills = [\"Got your Back\"]");
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\nskills = [\"Got your Back\"]", "C-CREATE-32");
    refused("race = \"Human\"\ntarot = \"2 of Cups\"\nskills = [\"Jedi Mind Trick\"]", "C-CREATE-32");
}

#[test]
fn c_create_33_each_skill_once_and_a_value_skill_adds_its_value() {
    let e = refused("race = \"Human\"\ntarot = \"3 of Swords\"\nskills = [\"Parry\", \"parry\"]", "C-CREATE-33");
    assert!(e.contains("t.toml:5: character[0] (X).skills[1]"), "{e}");
    assert_eq!(card("race = \"Human\"\ntarot = \"3 of Swords\"\nskills = [\"Got your Back\"]").values, ["Chivalry"]);
}

#[test]
fn c_create_34_skills_are_written_with_their_costs() {
    let k =
        card("race = \"Goblin\"\ntarot = \"8 of Rods\"\nskills = [\"Whirling Gale\", \"Epic Heal\", \"Mage Armor\"]");
    assert_eq!(k.effects, ["Skittish", "Whirling Gale 2M2E", "Epic Heal 2E3M", "Mage Armor (RE) 1M1E"]);
}

/// C-CREATE-35: points are the sum of every option.
#[test]
fn c_create_35_points_are_the_sum_of_every_option() {
    let k = card(
        "race = \"Demon\"\ntarot = \"8 of Swords\"\nweapons = [{ name = \"Dire Blade\", enchantment = \"Destruction\" }]\narmour = \"Heavy Plate\"\narmour_enchantment = \"Destruction\"\naccessory = \"Cloak of Wings\"\nskills = [\"Butcher\", \"Shove\", \"Retaliate\"]",
    );
    assert_eq!(k.points, 24 + 28 + 9 + 5 + 14 + 6 + 5 + 4 + 2 + 8);
    assert_eq!(k.costs.iter().map(|c| c.points).sum::<u32>(), k.points);
}

#[test]
fn c_create_36_a_battle_group_fits_its_allotment() {
    let text = format!(
        "[group]\nname = \"Deadholm\"\nallotment = 100\n\n{}\n{}",
        EXAMPLE,
        EXAMPLE.replace("Robed Elf Warrior", "Robed Elf Warrior (2)")
    );
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(
        e[0].starts_with("t.toml:3: group.allotment")
            && e[0].contains("150 points, over the allotment of 100")
            && e[0].contains("remove 50 points"),
        "{}",
        e[0]
    );
    let g = check(&text.replace("100", "150")).unwrap();
    assert_eq!((g.points, g.cards.len(), g.group.as_deref()), (150, 2, Some("Deadholm")));
}

#[test]
fn c_create_37_copies_need_different_names() {
    let text = format!("{EXAMPLE}\n{EXAMPLE}");
    let e = errors(&text);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].contains("character[1] (Robed Elf Warrior).name") && e[0].contains("(C-CREATE-37)"), "{}", e[0]);
}

#[test]
fn c_create_38_endurance_never_goes_above_nine() {
    // Mark of the Titans doubles End at deployment.
    let k =
        card("race = \"Dwarf\"\ntarot = \"5 of Coins\"\narmour = \"Studded Leather\"\narmour_enchantment = \"Rune\"");
    assert_eq!((k.stats.end, k.deploy_endurance), (4, 8));
    assert!(k.effects.contains(&"Mark of the Titans".to_string()));
    // No guide option reaches End 5 with Mark of the Titans; a content race with End 5 shows the cap.
    let races = FILES[1].1.replace(
        "name = \"Dwarf\"\nvalue = \"liberty\"\nstats = { def = 6, arm = 5, tuf = 3, end = 3",
        "name = \"Dwarf\"\nvalue = \"liberty\"\nstats = { def = 6, arm = 5, tuf = 3, end = 8",
    );
    assert_ne!(races, FILES[1].1);
    let mut files = FILES.to_vec();
    files[1].1 = &races;
    let c = Content::parse(&files).unwrap();
    let g = check_file(
        &c,
        "t.toml",
        &one("race = \"Dwarf\"\ntarot = \"5 of Coins\"\narmour = \"Studded Leather\"\narmour_enchantment = \"Rune\""),
    )
    .unwrap();
    assert_eq!((g.cards[0].stats.end, g.cards[0].deploy_endurance), (9, 9));
}

/// An illegal character gets every problem at once, each with its line, field, rule and fix.
#[test]
fn every_violation_is_reported_at_once() {
    let text = "[group]\nallotment = 60\n\n[[character]]\nname = \"Overloaded\"\nrace = \"Fae\"\ntarot = \"8 of Swords\"\nweapons = [{ name = \"Sabre\", enchantment = \"Bone\" }, \"Pike\", \"Dagger\"]\narmour = [\"Chain\", \"Leather\"]\narmour_enchantment = \"Rune\"\naccessory = \"Shield\"\nskills = [\"Parry\", \"Parry\", \"Smite\", \"Counter Attack\", \"Tactical Strike\"]\nvalues = [\"Chivalry\"]\n";
    let e = errors(text);
    let rules = [
        "C-CREATE-2",
        "C-CREATE-4",
        "C-CREATE-12",
        "C-CREATE-14",
        "C-CREATE-15",
        "C-CREATE-24",
        "C-CREATE-25",
        "C-CREATE-29",
        "C-CREATE-32",
        "C-CREATE-33",
        "C-CREATE-36",
    ];
    for r in rules {
        assert!(e.iter().any(|x| x.contains(r)), "{r} missing from {e:#?}");
    }
    for x in &e {
        assert!(x.starts_with("t.toml:"), "{x}");
        assert!(x.contains("C-CREATE-"), "every problem names its rule: {x}");
    }
    let line_of = |field: &str| {
        e.iter().find(|x| x.contains(&format!(").{field}"))).map(|x| x.split(':').nth(1).unwrap().to_string())
    };
    assert_eq!(line_of("weapons[0].enchantment").as_deref(), Some("8"));
    assert_eq!(line_of("armour").as_deref(), Some("9"));
    assert_eq!(line_of("skills[1]").as_deref(), Some("12"));
}

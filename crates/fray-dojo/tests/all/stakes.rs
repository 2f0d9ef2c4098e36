//! Bonuses and Penalties as a fight starts: the stakes file reads, and stakes that break the
//! rules are refused with every problem named (D-CW-2, D-CW-3, D-CMP-5).

use fray_core::table::TeamText;
use fray_dojo::{Dojo, FightSetup, stakes};

fn fight(options: &[&str], side: &str) -> Result<fray_dojo::State, Vec<String>> {
    let setup = FightSetup {
        options: options.iter().map(|s| s.to_string()).collect(),
        enemies: Some(TeamText { path: "side.toml".into(), text: format!("enemies = [\"the-judge\"]\n{side}") }),
        ..Default::default()
    };
    Dojo::builtin().build(&setup).map_err(|e| e.0)
}

#[test]
fn the_stakes_file_lists_nine_bonuses_and_ten_penalties() {
    let all = &Dojo::builtin().content().unwrap().stakes;
    let bonuses = all.iter().filter(|d| d.kind == stakes::StakeKind::Bonus).count();
    // The Default Bonus and nine more (D-BON-0..9); ten Penalties (D-PEN-1..10).
    assert_eq!((bonuses, all.len() - bonuses), (10, 10));
}

#[test]
fn an_unbalanced_stake_is_refused() {
    // D-CMP-5: at Middleweight with the Default Bonus kept, one Bonus alone is unbalanced.
    let e = fight(&[], "[[stake]]\nunit = \"ada\"\nbonus = \"power-up\"\n").unwrap_err();
    assert!(e[0].contains("D-CMP-5"), "{e:?}");
    // Balanced by a Bonus for the other side, it stands.
    let ok = "[[stake]]\nunit = \"ada\"\nbonus = \"power-up\"\n[[stake]]\nunit = \"the-judge\"\nbonus = \"counter\"\n";
    assert!(fight(&[], ok).is_ok());
    // D-CW-2: without the Default Bonus, the heroes have one pick.
    assert!(fight(&["default-bonus=false"], "[[stake]]\nunit = \"the-judge\"\npenalty = \"burned\"\n").is_ok());
}

#[test]
fn bad_stakes_name_each_problem() {
    let side = "[[stake]]\nunit = \"ada\"\nbonus = \"default\"\n[[stake]]\nunit = \"nobody\"\nbonus = \"vigor\"\n\
                [[stake]]\nunit = \"ada\"\nbonus = \"burned\"\n[[stake]]\nunit = \"ada\"\npenalty = \"handcuffed\"\npartner = \"the-judge\"\n";
    let e = fight(&["weight=weight-of-the-world"], side).unwrap_err();
    assert_eq!(e.len(), 4, "{e:?}");
    assert!(e[0].contains("D-CW-3") && e[0].contains("stake 1"), "{e:?}");
    assert!(e[1].contains("nobody"), "{e:?}");
    assert!(e[2].contains("no bonus"), "{e:?}");
    // D-PEN-6: a partner more than 2 spaces away.
    assert!(e[3].contains("D-PEN-6") && e[3].contains("partner"), "{e:?}");
}

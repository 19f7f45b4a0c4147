//! Tests of the option table and values (`options.rs`).

use super::*;

#[test]
fn search_tunables_are_options_only_in_the_spsa_build() {
    assert_eq!(find("rfp_margin").is_some(), cfg!(feature = "spsa"));
    assert_eq!(
        option_table().len(),
        OPTION_TABLE.len()
            + if cfg!(feature = "spsa") {
                crate::search::tunable_specs().count()
            } else {
                0
            }
    );
    assert!(
        option_table()
            .iter()
            .all(|s| s.check_value(&s.default_value()) || s.kind == OptionKind::Button)
    );
}

#[test]
fn names_match_case_insensitively_and_bad_values_change_nothing() {
    let mut o = Options::default();
    o.set("move overhead", Some("250")).unwrap();
    assert_eq!(o.move_overhead_ms(), 250);
    assert!(o.set("Move Overhead", Some("-1")).is_err());
    assert!(
        o.set("Move Overhead", Some("99999999999999999999"))
            .is_err()
    );
    assert!(o.set("Move Overhead", Some("ten")).is_err());
    assert_eq!(o.move_overhead_ms(), 250);
    o.set("uci_chess960", Some("TRUE")).unwrap();
    assert!(o.chess960());
    assert!(matches!(
        o.set("Nope", Some("1")),
        Err(OptionError::Unknown(_))
    ));
}

#[test]
fn search_algorithm_is_a_combo_of_every_teaching_search() {
    let mut o = Options::default();
    assert_eq!(o.search_algorithm(), None);
    let (_, spec) = find(SEARCH_ALGORITHM).unwrap();
    assert_eq!(
        spec.uci_line(&spec.default_value()),
        "option name SearchAlgorithm type combo default Engine var Engine var Minimax \
         var AlphaBeta var AlphaBetaOrdered var NegaScout var SSS var MTDf"
    );
    for name in &SEARCH_ALGORITHMS[1..] {
        o.set(SEARCH_ALGORITHM, Some(&name.to_lowercase())).unwrap();
        assert_eq!(o.get(SEARCH_ALGORITHM), &OptionValue::Text(name));
        assert!(o.search_algorithm().is_some(), "{name}");
    }
    assert!(o.set(SEARCH_ALGORITHM, Some("Alphabetta")).is_err());
    assert_eq!(o.get(SEARCH_ALGORITHM), &OptionValue::Text("MTDf"));
    o.set(SEARCH_ALGORITHM, Some("engine")).unwrap();
    assert_eq!(o.search_algorithm(), None);
}

#[test]
fn book_file_is_a_string_option_whose_empty_value_means_none() {
    let mut o = Options::default();
    let (_, spec) = find(BOOK_FILE).unwrap();
    assert_eq!(
        spec.uci_line(&spec.default_value()),
        "option name BookFile type string default <empty>"
    );
    assert_eq!(o.book_file(), "");
    o.set("bookfile", Some(" /books/my book.bin ")).unwrap();
    assert_eq!(o.book_file(), "/books/my book.bin");
    o.set(BOOK_FILE, Some("<empty>")).unwrap();
    assert_eq!(o.book_file(), "");
    o.set(BOOK_FILE, Some("x.bin")).unwrap();
    o.set(BOOK_FILE, None).unwrap();
    assert_eq!(o.book_file(), "");
    assert!(!o.own_book());
    assert_eq!(
        (o.book_depth(), o.book_variety(), o.book_seed()),
        (255, true, 0)
    );
}

#[test]
fn every_row_says_what_a_change_does() {
    for spec in option_table() {
        let tunable = crate::search::find_tunable(spec.name).is_some();
        assert_eq!(spec.effect == Effect::Tunable, tunable, "{}", spec.name);
        // Only what touches the searcher waits for a search to end.
        let searcher = [HASH, THREADS, CLEAR_HASH].contains(&spec.name);
        assert_eq!(spec.effect.needs_idle(), searcher, "{}", spec.name);
    }
    let effect = |name| find(name).expect("an option of the table").1.effect;
    assert_eq!(effect(UCI_SHOW_WDL), Effect::OutputStyle);
    assert_eq!(effect(UCI_CHESS960), Effect::OutputStyle);
    assert_eq!(effect(MULTI_PV), Effect::NextSearch);
    assert_eq!(effect(SYZYGY_PATH), Effect::OpenTables);
}

#[test]
fn the_search_settings_follow_the_options() {
    let defaults = Options::default().search_settings();
    assert_eq!((defaults.threads, defaults.multipv), (1, 1));
    assert_eq!(defaults.config, SearchConfig::default());
    let mut o = Options::default();
    for (name, value) in [
        (THREADS, "3"),
        (MULTI_PV, "4"),
        (NULL_MOVE, "false"),
        (SYZYGY_PROBE_DEPTH, "5"),
    ] {
        o.set(name, Some(value)).unwrap();
    }
    let settings = o.search_settings();
    assert_eq!((settings.threads, settings.multipv), (3, 4));
    assert_eq!(settings.tb, o.tb_settings());
    assert_eq!(settings.tb.probe_depth, 5);
    // NullMove off, every other switch the engine's.
    assert_eq!(
        settings.config,
        SearchConfig {
            null_move: false,
            ..SearchConfig::default()
        }
    );
}

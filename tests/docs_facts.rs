//! What the docs state against what is so, that a reader can follow
//! them:
//!
//! - every link's anchor (`file.md#heading`, `#heading`) names a heading of
//!   its target, as GitHub makes the anchors;
//! - where the docs state today's bench signature or the built-in net's
//!   sha256 (see [`docs_of_today`]), they state the engine's: the bench run
//!   here with the built-in net, and the sha256 of `nets/default.nnue`.

use std::collections::BTreeSet;

#[path = "common/doc_files.rs"]
mod doc_files;
use doc_files::{assert_none, doc_files, repo};

// ---------------------------------------------------------------------------
// Anchors.

/// The anchor GitHub gives a heading: lower case, punctuation dropped
/// (a code span's backticks too), spaces as hyphens.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}

/// The anchors of a markdown text's headings (outside fenced blocks); a
/// heading met again gets `-1`, `-2`, … as on GitHub.
fn anchors(text: &str) -> BTreeSet<String> {
    let mut seen: std::collections::BTreeMap<String, usize> = Default::default();
    let mut anchors = BTreeSet::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        let Some(heading) = line.strip_prefix('#') else {
            continue;
        };
        if in_fence {
            continue;
        }
        let base = slug(heading.trim_start_matches('#'));
        let n = seen.entry(base.clone()).or_insert(0);
        anchors.insert(if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        });
        *n += 1;
    }
    anchors
}

#[test]
fn every_anchor_of_the_docs_names_a_heading() {
    let mut problems = Vec::new();
    let mut checked = 0;
    for file in doc_files() {
        let text = std::fs::read_to_string(&file).expect("a readable doc");
        let name = file
            .strip_prefix(repo())
            .unwrap_or(&file)
            .display()
            .to_string();
        let dir = file.parent().expect("a doc is in a folder");
        for (i, _) in text.match_indices("](") {
            let rest = &text[i + 2..];
            let Some(end) = rest.find(')') else { continue };
            let target = &rest[..end];
            let Some((path, anchor)) = target.split_once('#') else {
                continue;
            };
            if target.contains("://") {
                continue;
            }
            let target_file = if path.is_empty() {
                file.clone()
            } else {
                dir.join(path)
            };
            if target_file.extension().is_none_or(|e| e != "md") {
                continue;
            }
            let Ok(target_text) = std::fs::read_to_string(&target_file) else {
                continue; // a missing file is the link test's to report
            };
            checked += 1;
            if !anchors(&target_text).contains(anchor) {
                problems.push(format!("{name}: link to {target}"));
            }
        }
    }
    assert!(checked > 50, "only {checked} anchors found in the docs");
    assert_none(&problems, "anchors of the docs that name no heading");
}

#[test]
fn anchors_are_made_as_github_makes_them() {
    let text = "# Top\n## The engine's side (`src/eval/nnue/`)\n```\n# not a heading\n```\n\
                ## Strength VI: a recipe (issue 71)\n## Top\n";
    let found: Vec<String> = anchors(text).into_iter().collect();
    assert_eq!(
        found,
        [
            "strength-vi-a-recipe-issue-71",
            "the-engines-side-srcevalnnue",
            "top",
            "top-1"
        ]
    );
}

// ---------------------------------------------------------------------------
// Today's facts: the bench signature and the built-in net's sha256.

/// The docs that state today's facts, as (name, text): every doc but the
/// strength log, which keeps the numbers of their day, and of the log its
/// opening summary, "Where Shears stands today", which states today's.
fn docs_of_today() -> Vec<(String, String)> {
    let mut docs = Vec::new();
    for file in doc_files() {
        let name = file
            .strip_prefix(repo())
            .unwrap_or(&file)
            .display()
            .to_string();
        let text = std::fs::read_to_string(&file).expect("a readable doc");
        if name == "docs/strength.md" {
            let summary = text
                .split("\n## ")
                .find(|s| s.starts_with("Where Shears stands today\n"))
                .expect("docs/strength.md opens with where Shears stands today");
            docs.push((format!("{name} (its summary)"), summary.to_owned()));
        } else {
            docs.push((name, text));
        }
    }
    docs
}

/// The paragraphs of a markdown text outside its fenced blocks, each with
/// its lines joined by spaces (a table is one paragraph, each row a line
/// of it).
fn paragraphs(text: &str) -> Vec<String> {
    let mut paragraphs = Vec::new();
    let mut current = String::new();
    let mut in_fence = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        if line.trim().is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
            continue;
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(line.trim());
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    paragraphs
}

/// The numbers of six digits or more (commas allowed: `3,422,847`) in
/// `text`, without their commas.
fn large_numbers(text: &str) -> Vec<String> {
    let mut numbers = Vec::new();
    let mut current = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() || (c == ',' && !current.is_empty()) {
            current.push(c);
            continue;
        }
        let digits: String = current.chars().filter(char::is_ascii_digit).collect();
        if digits.len() >= 6 {
            numbers.push(digits);
        }
        current.clear();
    }
    numbers
}

/// How far around the words "bench signature" a number is read as the
/// signature, within the sentence (or table cell).
const SIGNATURE_REACH: usize = 40;

/// The numbers a paragraph states as the bench signature: those of six
/// digits or more within [`SIGNATURE_REACH`] characters before or after
/// the words "bench signature" in the same sentence or table cell.
fn stated_signatures(paragraph: &str) -> Vec<String> {
    let lower = paragraph.to_lowercase();
    let mut stated = Vec::new();
    for (at, phrase) in lower.match_indices("bench signature") {
        let after: String = paragraph[at + phrase.len()..]
            .chars()
            .take(SIGNATURE_REACH)
            .take_while(|c| !matches!(c, '.' | ';' | '|'))
            .collect();
        let before: String = {
            let mut chars: Vec<char> = paragraph[..at]
                .chars()
                .rev()
                .take(SIGNATURE_REACH)
                .take_while(|c| !matches!(c, '.' | ';' | '|'))
                .collect();
            chars.reverse();
            chars.into_iter().collect()
        };
        stated.extend(large_numbers(&before));
        stated.extend(large_numbers(&after));
    }
    stated
}

/// How far after the word "sha256" its sum may start.
const SHA_REACH: usize = 30;

/// The hexadecimal strings a paragraph gives as sha256 sums: the first run
/// of 8 to 64 hex digits (a prefix is written with `…` after it) that
/// starts within [`SHA_REACH`] characters after the word "sha256".
fn stated_sha256s(paragraph: &str) -> Vec<String> {
    let mut stated = Vec::new();
    for (at, phrase) in paragraph.match_indices("sha256") {
        let rest: Vec<char> = paragraph[at + phrase.len()..].chars().collect();
        let mut i = 0;
        while i < rest.len().min(SHA_REACH) {
            if !rest[i].is_ascii_hexdigit() {
                i += 1;
                continue;
            }
            let run: String = rest[i..]
                .iter()
                .take_while(|c| c.is_ascii_hexdigit())
                .collect();
            if (8..=64).contains(&run.len()) {
                stated.push(run.to_lowercase());
                break;
            }
            i += run.len();
        }
    }
    stated
}

/// The bench signature: what `shears bench` prints, the nodes of the bench
/// positions at the default depth with the built-in net.
fn bench_signature() -> u64 {
    use shears::engine::bench::{self, DEFAULT_DEPTH};
    use shears::eval::{Evaluation, LoadedNet};
    use shears::search::Signals;
    use shears::search::params::SearchConfig;
    let net = LoadedNet::built_in().expect("the built-in net loads");
    let result = bench::run_with(
        DEFAULT_DEPTH,
        SearchConfig::default(),
        &Evaluation::Net(net),
        &Signals::new(false),
        &mut |_| {},
    );
    result.nodes
}

fn built_in_net_sha256() -> String {
    use sha2::{Digest, Sha256};
    let bytes = std::fs::read(repo().join("nets/default.nnue")).expect("nets/default.nnue");
    Sha256::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn the_docs_state_todays_bench_signature() {
    let signature = bench_signature().to_string();
    let mut problems = Vec::new();
    let mut stated = 0;
    for (name, text) in docs_of_today() {
        for paragraph in paragraphs(&text) {
            for number in stated_signatures(&paragraph) {
                stated += 1;
                if number != signature {
                    problems.push(format!(
                        "{name}: the bench signature {number}, shears bench prints {signature}"
                    ));
                }
            }
        }
    }
    // docs/nnue.md and strength.md's summary state it at least.
    assert!(
        stated >= 2,
        "the docs state the bench signature {stated} times"
    );
    assert_none(&problems, "bench signatures the docs state wrongly");
}

#[test]
fn the_docs_state_the_built_in_nets_sha256() {
    let sha = built_in_net_sha256();
    let mut problems = Vec::new();
    let mut stated = 0;
    for (name, text) in docs_of_today() {
        for paragraph in paragraphs(&text) {
            let of_the_built_in_net = paragraph.contains("nets/default.nnue")
                || paragraph.contains("built-in net")
                || paragraph.contains("net built in");
            if !of_the_built_in_net {
                continue;
            }
            for hex in stated_sha256s(&paragraph) {
                stated += 1;
                if !sha.starts_with(&hex) {
                    problems.push(format!(
                        "{name}: the built-in net's sha256 {hex}…, nets/default.nnue's is {sha}"
                    ));
                }
            }
        }
    }
    assert!(
        stated >= 2,
        "the docs state the built-in net's sha256 {stated} times"
    );
    assert_none(&problems, "sha256 sums of the built-in net stated wrongly");
}

#[test]
fn the_fact_readers_find_what_is_stated_and_nothing_else() {
    let paragraph = "With it `shears bench` prints the bench signature, 3,422,847 nodes \
                     (the hand-crafted evaluation's, 3734994). The bench signature is \
                     the count of 50 positions. A table: | **3333676 nodes** (the bench \
                     signature) | 4406083 positions |";
    assert_eq!(stated_signatures(paragraph), ["3422847", "3333676"]);
    let paragraph = "s6-g2 (`nets/default.nnue`, sha256 `f5a0cf89…`); data sha256 of \
                     that file `9f75bde0…fad5dacc`; sha256 of nets/default.nnue: \
                     F5A0CF893A23; commit 8f6d045; sha256 abc";
    assert_eq!(
        stated_sha256s(paragraph),
        ["f5a0cf89", "9f75bde0", "f5a0cf893a23"]
    );
    let text = "a\nb\n\n```\nbench signature 1234567\n```\n| x |\n| y |\n";
    assert_eq!(paragraphs(text), ["a b", "| x | | y |"]);
}

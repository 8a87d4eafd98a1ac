//! Bad input never crashes or hangs the static checker: random words of
//! every encoding (reserved bits, invalid operands, truncated instructions)
//! and random valid code with branches anywhere, from every offset.

use risa_check::cfg::Entry;
use risa_check::lint::{check_code_noting, Options};
use risa_gcn::random::{garbage_cases, valid_code};
use risa_gcn::ALL_GENS;

#[test]
fn garbage_and_random_code_are_checked_without_panics() {
    let opts = Options {
        xnack: true,
        ..Options::default()
    };
    for gen in ALL_GENS {
        let code: Vec<u8> = garbage_cases(gen, 3000, 9).concat();
        let entries: Vec<Entry> = (0..64)
            .map(|k| Entry {
                pc: 4 * k,
                function: k % 2 == 1,
            })
            .collect();
        let (_, notes) = check_code_noting(gen.into(), &code, &entries, &opts);
        assert!(!notes.is_empty(), "{gen}: garbage decoded everywhere?");
        // Valid random code: branches jump anywhere, loops included.
        let code = valid_code(gen, 20_000, 3);
        let entries: Vec<Entry> = (0..32).map(|k| Entry::kernel(4 * 97 * k)).collect();
        let (r, _) = check_code_noting(gen.into(), &code, &entries, &opts);
        // Random code reads what random loads write soon after.
        assert!(r.findings().count() > 0, "{gen}");
    }
}

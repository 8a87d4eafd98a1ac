//! Encodings CLRX knows and LLVM 14 does not (VOP3 forms of the lane
//! instructions on every generation, GCN 1.4 SMEM with SGPR plus immediate
//! offset, VOP3 16-bit interpolation `high`, GFX9 `image_gather4h*`,
//! `buffer_store_*_d16_hi` as CLRX names them). The words and CLRX's text
//! come from clrxasm/clrxdisasm (`tools/vectors/clrx-decodes.sh`): risa must
//! decode the words to CLRX's instruction, print text that its assembler
//! takes back to the same words, and assemble CLRX's own text to them.

use risa_asm_core::Options;
use risa_gcn::{decode, print, Dialect, Processor};

#[test]
fn clrx_only_encodings_decode_print_and_assemble_back() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/vectors/clrx-decodes.txt"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for l in text.lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = l.split('\t').collect();
        let chip = Processor::parse(f[0]).unwrap();
        let words: Vec<u32> = f[1]
            .split(' ')
            .map(|w| u32::from_str_radix(w, 16).unwrap())
            .collect();
        let clrx = f[2];
        let i = decode(chip, &words).unwrap_or_else(|e| panic!("{l}: {e}"));
        assert_eq!(i.len as usize, words.len(), "{l}");
        assert_eq!(i.reserved_bits(), 0, "{l}");
        let ours = print(&i, Dialect::Clrx);
        assert_eq!(
            ours.split(' ').next(),
            clrx.split(' ').next(),
            "{l}: mnemonic"
        );
        for src in [ours.as_str(), clrx] {
            let a = risa_gcn_asm::assemble_for(Some(chip), "t.s", src, Options::default(), false);
            assert!(!a.output.has_errors(), "{l}: {src}: {}", a.diagnostics());
            assert_eq!(a.code(), words, "{l}: {src}");
        }
        n += 1;
    }
    assert!(n >= 20, "only {n} vectors");
}

;; The loops of yaml-lines.ts over a text's bytes (WebAssembly: about a third of the time of the same loop in
;; JavaScript). Memory: 0-255 the bytes that stop a plain line's copy, 256-511 the bytes a plain scalar's later line may
;; not start with, 512-767 the one-character escapes (u16 per ASCII byte: the Latin-1 character plus 1, 0 for none;
;; all three written by yaml-lines.ts), then the text (a line break after its end, so no loop checks a bound per byte)
;; and the room for the value. Each function returns the value's length in bytes, or -1 where the general reading
;; decides; other results are in the globals. Spaces are skipped inline (a call per line costs as much as the line),
;; four at a time (an unaligned load; the line break after the text stops it). After an edit, rebuild
;; yaml-lines-wasm.ts: `node scripts/wasm.mjs`.
(module
  (memory (export "memory") 1)
  ;; Where the scalar's lines stop (the start of the line after them).
  (global $end (export "end") (mut i32) (i32.const 0))
  ;; A block scalar's blank lines at its end (kept by `+` chomping).
  (global $blanks (export "blanks") (mut i32) (i32.const 0))
  ;; A quoted scalar's least indentation of its lines with text after the first (-1: one line), and whether a line
  ;; after the first starts with spaces then a tab.
  (global $least (export "least") (mut i32) (i32.const -1))
  (global $tabbed (export "tabbed") (mut i32) (i32.const 0))

  ;; foldPlainLines in yaml-lines.ts: the later lines of a plain scalar from `from`, folded into `out`.
  (func (export "plain") (param $src i32) (param $from i32) (param $parent i32) (param $length i32) (param $out i32)
    (result i32)
    (local $n i32) (local $blanks i32) (local $line i32) (local $taken i32) (local $c i32) (local $k i32)
    (local $before i32) (local $last i32)
    (local.set $line (local.get $from))
    (local.set $taken (local.get $from))
    (block $done
      (loop $lines
        (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $line))))
        (if (i32.eq (local.get $c) (i32.const 0x0a))
          (then
            (br_if $done (i32.ge_u (local.get $line) (local.get $length)))
            (local.set $blanks (i32.add (local.get $blanks) (i32.const 1)))
            (local.set $line (i32.add (local.get $line) (i32.const 1)))
            (br $lines)))
        (local.set $k (local.get $line))
        (block $spaced1
          (loop $spaces1
            (if (i32.eq (i32.load (i32.add (local.get $src) (local.get $k))) (i32.const 0x20202020))
              (then
                (local.set $k (i32.add (local.get $k) (i32.const 4)))
                (br $spaces1))))
          (loop $space1
            (br_if $spaced1 (i32.ne (i32.load8_u (i32.add (local.get $src) (local.get $k))) (i32.const 0x20)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $space1)))
        (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $k))))
        (br_if $done (i32.le_s (i32.sub (local.get $k) (local.get $line)) (local.get $parent)))
        (br_if $done (i32.load8_u offset=256 (local.get $c)))
        (local.set $before (local.get $n))
        ;; The separator: a space, or one line break per blank line before.
        (if (i32.eqz (local.get $blanks))
          (then
            (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x20))
            (local.set $n (i32.add (local.get $n) (i32.const 1))))
          (else
            (loop $breaks
              (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
              (local.set $n (i32.add (local.get $n) (i32.const 1)))
              (local.set $blanks (i32.sub (local.get $blanks) (i32.const 1)))
              (br_if $breaks (local.get $blanks)))))
        (block $copied
          (loop $copy
            (br_if $copied (i32.load8_u (local.get $c)))
            (i32.store8 (i32.add (local.get $out) (local.get $n)) (local.get $c))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $k))))
            (br $copy)))
        ;; A `:` or `#`, the text's end, or a trailing blank: the line is not taken.
        (local.set $last (i32.load8_u (i32.sub (i32.add (local.get $out) (local.get $n)) (i32.const 1))))
        (if (i32.or
              (i32.or (i32.ne (local.get $c) (i32.const 0x0a)) (i32.ge_u (local.get $k) (local.get $length)))
              (i32.or (i32.eq (local.get $last) (i32.const 0x20)) (i32.eq (local.get $last) (i32.const 0x09))))
          (then
            (local.set $n (local.get $before))
            (br $done)))
        (local.set $line (i32.add (local.get $k) (i32.const 1)))
        (local.set $taken (local.get $line))
        (br $lines)))
    (global.set $end (local.get $line))
    (if (result i32) (i32.eq (local.get $taken) (local.get $from))
      (then (i32.const -1))
      (else (local.get $n))))

  ;; readBlockLines in yaml-lines.ts: a block scalar's lines from `first`, its value (before chomping) into `out`.
  (func (export "block") (param $src i32) (param $first i32) (param $parent i32) (param $literal i32)
    (param $length i32) (param $out i32) (result i32)
    (local $line i32) (local $leading i32) (local $widest i32) (local $k i32) (local $indent i32) (local $n i32)
    (local $blanks i32) (local $sep i32) (local $moreBefore i32) (local $c i32) (local $more i32) (local $b i32)
    (local.set $line (local.get $first))
    ;; The leading blank lines, then the first line with text: its spaces are the content's indentation.
    (block $led
      (loop $leadingLines
        (local.set $k (local.get $line))
        (block $spaced2
          (loop $spaces2
            (if (i32.eq (i32.load (i32.add (local.get $src) (local.get $k))) (i32.const 0x20202020))
              (then
                (local.set $k (i32.add (local.get $k) (i32.const 4)))
                (br $spaces2))))
          (loop $space2
            (br_if $spaced2 (i32.ne (i32.load8_u (i32.add (local.get $src) (local.get $k))) (i32.const 0x20)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $space2)))
        (br_if $led (i32.ne (i32.load8_u (i32.add (local.get $src) (local.get $k))) (i32.const 0x0a)))
        (br_if $led (i32.ge_u (local.get $k) (local.get $length)))
        (if (i32.gt_s (i32.sub (local.get $k) (local.get $line)) (local.get $widest))
          (then (local.set $widest (i32.sub (local.get $k) (local.get $line)))))
        (local.set $leading (i32.add (local.get $leading) (i32.const 1)))
        (local.set $line (i32.add (local.get $k) (i32.const 1)))
        (br $leadingLines)))
    (local.set $indent (i32.sub (local.get $k) (local.get $line)))
    (if (i32.or
          (i32.or (i32.le_s (local.get $indent) (local.get $parent)) (i32.ge_u (local.get $k) (local.get $length)))
          (i32.or
            (i32.eq (i32.load8_u (i32.add (local.get $src) (local.get $k))) (i32.const 0x09))
            (i32.gt_s (local.get $widest) (local.get $indent))))
      (then (return (i32.const -1))))
    (block $written
      (loop $leadingBreaks
        (br_if $written (i32.ge_s (local.get $n) (local.get $leading)))
        (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $leadingBreaks)))
    ;; Folded: the separator owed before the next line with text (none, a space, one or two line breaks).
    (block $ended
      (loop $lines
        (local.set $k (local.get $line))
        (block $spaced3
          (loop $spaces3
            (if (i32.eq (i32.load (i32.add (local.get $src) (local.get $k))) (i32.const 0x20202020))
              (then
                (local.set $k (i32.add (local.get $k) (i32.const 4)))
                (br $spaces3))))
          (loop $space3
            (br_if $spaced3 (i32.ne (i32.load8_u (i32.add (local.get $src) (local.get $k))) (i32.const 0x20)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $space3)))
        (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $k))))
        (if (i32.ge_u (local.get $k) (local.get $length))
          (then
            (if (i32.gt_s (local.get $k) (local.get $line)) (then (return (i32.const -1))))
            (br $ended)))
        (if (i32.eq (local.get $c) (i32.const 0x0a))
          (then
            (if (i32.gt_s (i32.sub (local.get $k) (local.get $line)) (local.get $indent))
              (then (return (i32.const -1))))
            (local.set $blanks (i32.add (local.get $blanks) (i32.const 1)))
            (local.set $line (i32.add (local.get $k) (i32.const 1)))
            (br $lines)))
        (if (i32.lt_s (i32.sub (local.get $k) (local.get $line)) (local.get $indent))
          (then
            (if (i32.eq (local.get $c) (i32.const 0x09)) (then (return (i32.const -1))))
            (br $ended)))
        (if (local.get $literal)
          (then
            ;; Literal: a line break before each line after the first, and one per blank line.
            (if (local.get $sep)
              (then
                (local.set $b (i32.const 0))
                (loop $breaks
                  (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
                  (local.set $n (i32.add (local.get $n) (i32.const 1)))
                  (local.set $b (i32.add (local.get $b) (i32.const 1)))
                  (br_if $breaks (i32.le_s (local.get $b) (local.get $blanks))))))
            (local.set $sep (i32.const 1)))
          (else
            ;; Each blank line: a line break, the first one taking the place of a space.
            (if (i32.gt_s (local.get $blanks) (i32.const 0))
              (then
                (if (i32.eq (local.get $sep) (i32.const 1))
                  (then
                    (local.set $sep (i32.const 2))
                    (local.set $blanks (i32.sub (local.get $blanks) (i32.const 1)))))
                (block $blanked
                  (loop $blankBreaks
                    (br_if $blanked (i32.le_s (local.get $blanks) (i32.const 0)))
                    (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))
                    (local.set $blanks (i32.sub (local.get $blanks) (i32.const 1)))
                    (br $blankBreaks)))))
            (local.set $more
              (i32.or
                (i32.gt_s (i32.sub (local.get $k) (local.get $line)) (local.get $indent))
                (i32.eq
                  (i32.load8_u (i32.add (local.get $src) (i32.add (local.get $line) (local.get $indent))))
                  (i32.const 0x09))))
            (if (local.get $more)
              (then
                (if (i32.eq (local.get $sep) (i32.const 1))
                  (then (local.set $sep (i32.const 2)))
                  (else
                    (if (i32.and (i32.eq (local.get $sep) (i32.const 2)) (i32.eqz (local.get $moreBefore)))
                      (then (local.set $sep (i32.const 3))))))))
            (if (i32.eq (local.get $sep) (i32.const 1))
              (then
                (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x20))
                (local.set $n (i32.add (local.get $n) (i32.const 1))))
              (else
                (if (i32.ge_s (local.get $sep) (i32.const 2))
                  (then
                    (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
                    (local.set $n (i32.add (local.get $n) (i32.const 1)))
                    (if (i32.eq (local.get $sep) (i32.const 3))
                      (then
                        (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
                        (local.set $n (i32.add (local.get $n) (i32.const 1)))))))))
            (local.set $sep (select (i32.const 2) (i32.const 1) (local.get $more)))
            (local.set $moreBefore (local.get $more))))
        (local.set $blanks (i32.const 0))
        ;; The line past the content's indentation, copied.
        (local.set $k (i32.add (local.get $line) (local.get $indent)))
        (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $k))))
        (block $copied
          (loop $copy
            (br_if $copied (i32.eq (local.get $c) (i32.const 0x0a)))
            (i32.store8 (i32.add (local.get $out) (local.get $n)) (local.get $c))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $k))))
            (br $copy)))
        (if (i32.ge_u (local.get $k) (local.get $length)) (then (return (i32.const -1))))
        (local.set $line (i32.add (local.get $k) (i32.const 1)))
        (br $lines)))
    (global.set $end (local.get $line))
    (global.set $blanks (local.get $blanks))
    (local.get $n))

  ;; foldQuotedLines in yaml-lines.ts: the body `from`..`to` of a quoted scalar (double-quoted when `double`), folded
  ;; into `out`; -1 for an escape that is not one character of Latin-1.
  (func (export "quoted") (param $src i32) (param $from i32) (param $to i32) (param $double i32) (param $out i32)
    (result i32)
    (local $n i32) (local $kept i32) (local $least i32) (local $tabbed i32) (local $i i32) (local $c i32)
    (local $s i32) (local $d i32) (local $k i32) (local $breaks i32) (local $escaped i32) (local $next i32)
    (local.set $least (i32.const -1))
    (local.set $i (local.get $from))
    (block $done
      (loop $chars
        (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $i))))
        ;; Ordinary characters: copied in a tight loop.
        (block $stop
          (loop $copy
            (br_if $stop
              (i32.and
                (i32.le_u (local.get $c) (i32.const 0x5c))
                (i32.or
                  (i32.or (i32.eq (local.get $c) (i32.const 0x0a)) (i32.eq (local.get $c) (i32.const 0x22)))
                  (i32.or (i32.eq (local.get $c) (i32.const 0x27)) (i32.eq (local.get $c) (i32.const 0x5c))))))
            (i32.store8 (i32.add (local.get $out) (local.get $n)) (local.get $c))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $c (i32.load8_u (i32.add (local.get $src) (local.get $i))))
            (br $copy)))
        (if (i32.eq (local.get $c) (i32.const 0x0a))
          (then
            ;; The blanks before the break go (not those an escape or a fold wrote).
            (block $trimmed
              (loop $trim
                (br_if $trimmed (i32.le_s (local.get $n) (local.get $kept)))
                (local.set $d (i32.load8_u (i32.sub (i32.add (local.get $out) (local.get $n)) (i32.const 1))))
                (br_if $trimmed
                  (i32.and (i32.ne (local.get $d) (i32.const 0x20)) (i32.ne (local.get $d) (i32.const 0x09))))
                (local.set $n (i32.sub (local.get $n) (i32.const 1)))
                (br $trim)))
            ;; Most often the next line has text after spaces: one space stands for the break.
            (local.set $s (i32.add (local.get $i) (i32.const 1)))
            (block $spaced4
              (loop $spaces4
                (if (i32.eq (i32.load (i32.add (local.get $src) (local.get $s))) (i32.const 0x20202020))
                  (then
                    (local.set $s (i32.add (local.get $s) (i32.const 4)))
                    (br $spaces4))))
              (loop $space4
                (br_if $spaced4 (i32.ne (i32.load8_u (i32.add (local.get $src) (local.get $s))) (i32.const 0x20)))
                (local.set $s (i32.add (local.get $s) (i32.const 1)))
                (br $space4)))
            (local.set $d (i32.load8_u (i32.add (local.get $src) (local.get $s))))
            (if (i32.and (i32.ne (local.get $d) (i32.const 0x0a)) (i32.ne (local.get $d) (i32.const 0x09)))
              (then
                (if (i32.or
                      (i32.eq (local.get $least) (i32.const -1))
                      (i32.lt_s (i32.sub (i32.sub (local.get $s) (local.get $i)) (i32.const 1)) (local.get $least)))
                  (then (local.set $least (i32.sub (i32.sub (local.get $s) (local.get $i)) (i32.const 1)))))
                (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x20))
                (local.set $n (i32.add (local.get $n) (i32.const 1)))
                (local.set $kept (local.get $n))
                (local.set $i (local.get $s))
                (br $chars)))
            ;; Blank lines, or a line starting with a tab: n breaks fold into n - 1 line breaks (a space for one).
            (local.set $breaks (i32.const 0))
            (local.set $k (local.get $i))
            (block $folded
              (loop $fold
                (local.set $s (i32.add (local.get $k) (i32.const 1)))
                (block $spaced5
                  (loop $spaces5
                    (if (i32.eq (i32.load (i32.add (local.get $src) (local.get $s))) (i32.const 0x20202020))
                      (then
                        (local.set $s (i32.add (local.get $s) (i32.const 4)))
                        (br $spaces5))))
                  (loop $space5
                    (br_if $spaced5 (i32.ne (i32.load8_u (i32.add (local.get $src) (local.get $s))) (i32.const 0x20)))
                    (local.set $s (i32.add (local.get $s) (i32.const 1)))
                    (br $space5)))
                (local.set $d (i32.load8_u (i32.add (local.get $src) (local.get $s))))
                (if (i32.eq (local.get $d) (i32.const 0x09)) (then (local.set $tabbed (i32.const 1))))
                (if (i32.and
                      (i32.ne (local.get $d) (i32.const 0x0a))
                      (i32.or
                        (i32.eq (local.get $least) (i32.const -1))
                        (i32.lt_s (i32.sub (i32.sub (local.get $s) (local.get $k)) (i32.const 1)) (local.get $least))))
                  (then (local.set $least (i32.sub (i32.sub (local.get $s) (local.get $k)) (i32.const 1)))))
                (block $blank
                  (loop $blanks
                    (local.set $d (i32.load8_u (i32.add (local.get $src) (local.get $s))))
                    (br_if $blank
                      (i32.and (i32.ne (local.get $d) (i32.const 0x20)) (i32.ne (local.get $d) (i32.const 0x09))))
                    (local.set $s (i32.add (local.get $s) (i32.const 1)))
                    (br $blanks)))
                (if (i32.and
                      (i32.lt_s (local.get $s) (local.get $to))
                      (i32.eq (i32.load8_u (i32.add (local.get $src) (local.get $s))) (i32.const 0x0a)))
                  (then
                    (local.set $k (local.get $s))
                    (local.set $breaks (i32.add (local.get $breaks) (i32.const 1)))
                    (br $fold)))
                (local.set $i (local.get $s))))
            (if (i32.eqz (local.get $breaks))
              (then
                (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x20))
                (local.set $n (i32.add (local.get $n) (i32.const 1))))
              (else
                (loop $lineBreaks
                  (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.const 0x0a))
                  (local.set $n (i32.add (local.get $n) (i32.const 1)))
                  (local.set $breaks (i32.sub (local.get $breaks) (i32.const 1)))
                  (br_if $lineBreaks (local.get $breaks)))))
            (local.set $kept (local.get $n))
            (br $chars)))
        (br_if $done (i32.ge_s (local.get $i) (local.get $to)))
        (if (i32.and (i32.eq (local.get $c) (i32.const 0x5c)) (local.get $double))
          (then
            (local.set $next (i32.load8_u (i32.add (local.get $src) (i32.add (local.get $i) (i32.const 1)))))
            (local.set $escaped
              (if (result i32) (i32.lt_u (local.get $next) (i32.const 128))
                (then (i32.load16_u offset=512 (i32.shl (local.get $next) (i32.const 1))))
                (else (i32.const 0))))
            (if (i32.or (i32.eqz (local.get $escaped)) (i32.gt_u (local.get $escaped) (i32.const 0x100)))
              (then (return (i32.const -1))))
            (i32.store8 (i32.add (local.get $out) (local.get $n)) (i32.sub (local.get $escaped) (i32.const 1)))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))
            (local.set $kept (local.get $n))
            (local.set $i (i32.add (local.get $i) (i32.const 2))))
          (else
            (i32.store8 (i32.add (local.get $out) (local.get $n)) (local.get $c))
            (local.set $n (i32.add (local.get $n) (i32.const 1)))
            (if (i32.and (i32.eq (local.get $c) (i32.const 0x27)) (i32.eqz (local.get $double)))
              (then
                ;; '' is one quote.
                (local.set $kept (local.get $n))
                (local.set $i (i32.add (local.get $i) (i32.const 2))))
              (else (local.set $i (i32.add (local.get $i) (i32.const 1)))))))
        (br $chars)))
    (global.set $least (local.get $least))
    (global.set $tabbed (local.get $tabbed))
    (local.get $n)))

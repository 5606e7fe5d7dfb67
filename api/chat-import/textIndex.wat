;; Scans of decoded export text, eight UTF-16 units per step. Built into textIndex.wasm by
;; `npm run build:wasm`; a unit test checks the committed binary is this file's build.
;;
;; Memory, in bytes:
;;   0 .. 4096       name slots: 512 x (byte offset of the name's units, length in units; -1 = empty)
;;   4096 .. 32768   the units of the names in the slots
;;   32768 .. 98304  line records written by indexLines: 2048 x 8 x i32
;;   98304 ..        the text block (UTF-16LE), then at least 16 zero bytes; memory grows with
;;                   the longest line, never with the file
;;
;; A line record, all positions in units from the start of the block, -1 for "none":
;;   lf, end (before a CR that precedes the LF),
;;   first tab, second tab (looked for only on lines that start with a digit or one of the period words (U+4E0A U+4E0B U+5348 U+C624),
;;   the lines that can start a record),
;;   seconds of a leading "H:MM" or "HH:MM" followed by a tab (hours 0-23), or -1,
;;   the name slot whose name equals the units between the first and second tab, or -1,
;;   the last bidi control, the last double quote.
(module
  (memory (export "memory") 4)

  ;; Index of the first bidi control (U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) in units
  ;; [from, to) of the block, or `to`.
  (func (export "findMark") (param $from i32) (param $to i32) (result i32)
    (local $at i32) (local $end i32) (local $hits i32) (local $pos i32)
    (local.set $at (i32.add (i32.const 98304) (i32.shl (local.get $from) (i32.const 1))))
    (local.set $end (i32.add (i32.const 98304) (i32.shl (local.get $to) (i32.const 1))))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (local.set $hits (i16x8.bitmask (call $marks (v128.load (local.get $at)))))
        (if (local.get $hits)
          (then
            (local.set $pos (i32.add
              (i32.shr_u (i32.sub (local.get $at) (i32.const 98304)) (i32.const 1))
              (i32.ctz (local.get $hits))))
            ;; The last step may read past `to`.
            (return (select (local.get $pos) (local.get $to) (i32.lt_u (local.get $pos) (local.get $to))))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $step)))
    (local.get $to))

  ;; Lanes holding a bidi control: (unit - low) <= span, unsigned, for the three ranges.
  (func $marks (param $v v128) (result v128)
    (v128.or
      (v128.or
        (i16x8.le_u (i16x8.sub (local.get $v) (v128.const i16x8 0x200e 0x200e 0x200e 0x200e 0x200e 0x200e 0x200e 0x200e))
                    (v128.const i16x8 1 1 1 1 1 1 1 1))
        (i16x8.le_u (i16x8.sub (local.get $v) (v128.const i16x8 0x202a 0x202a 0x202a 0x202a 0x202a 0x202a 0x202a 0x202a))
                    (v128.const i16x8 4 4 4 4 4 4 4 4)))
      (i16x8.le_u (i16x8.sub (local.get $v) (v128.const i16x8 0x2066 0x2066 0x2066 0x2066 0x2066 0x2066 0x2066 0x2066))
                  (v128.const i16x8 3 3 3 3 3 3 3 3))))

  ;; Writes a record for each line of units [0, len) of the block that ends with an LF, at most
  ;; 2048, and returns how many. A line cut off by the end of the block gets no record. The scan
  ;; writes each line's end, last bidi control and last quote.
  (func (export "indexLines") (param $len i32) (result i32)
    (local $at i32) (local $end i32) (local $bits i32) (local $pos i32) (local $unit i32)
    (local $lineStart i32) (local $mark i32) (local $quote i32)
    (local $count i32) (local $out i32)
    (local.set $at (i32.const 98304))
    (local.set $end (i32.add (i32.const 98304) (i32.shl (local.get $len) (i32.const 1))))
    (local.set $mark (i32.const -1))
    (local.set $quote (i32.const -1))
    (block $done
      (loop $step
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        ;; Tabs are looked for once a line is known to need them: most steps find nothing here,
        ;; and each unit found costs a hard-to-predict branch.
        (local.set $bits (i16x8.bitmask (call $events (v128.load (local.get $at)))))
        ;; Units past `len` are the zeros after the block or an older block's text: not looked at.
        (block $lanes
          (loop $lane
            (br_if $lanes (i32.eqz (local.get $bits)))
            (local.set $pos (i32.add
              (i32.shr_u (i32.sub (local.get $at) (i32.const 98304)) (i32.const 1))
              (i32.ctz (local.get $bits))))
            (br_if $done (i32.ge_u (local.get $pos) (local.get $len)))
            (local.set $bits (i32.and (local.get $bits) (i32.sub (local.get $bits) (i32.const 1))))
            (local.set $unit (call $unitAt (local.get $pos)))
            (if (i32.eq (local.get $unit) (i32.const 10))
              (then
                (local.set $out (i32.add (i32.const 32768) (i32.shl (local.get $count) (i32.const 5))))
                (i32.store (local.get $out) (local.get $pos))
                (i32.store offset=4 (local.get $out)
                  (select
                    (i32.sub (local.get $pos) (i32.const 1))
                    (local.get $pos)
                    (i32.and
                      (i32.gt_s (local.get $pos) (local.get $lineStart))
                      (i32.eq (call $unitAt (i32.sub (local.get $pos) (i32.const 1))) (i32.const 13)))))
                (i32.store offset=24 (local.get $out) (local.get $mark))
                (i32.store offset=28 (local.get $out) (local.get $quote))
                (local.set $count (i32.add (local.get $count) (i32.const 1)))
                (br_if $done (i32.eq (local.get $count) (i32.const 2048)))
                (local.set $lineStart (i32.add (local.get $pos) (i32.const 1)))
                (local.set $mark (i32.const -1))
                (local.set $quote (i32.const -1)))
              (else
                (if (i32.eq (local.get $unit) (i32.const 34))
                  (then (local.set $quote (local.get $pos)))
                  (else (local.set $mark (local.get $pos))))))
            (br $lane)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $step)))
    ;; Then the fields that need a look at the line, in a loop of their own: measured faster than
    ;; doing it inside the scan.
    (local.set $lineStart (i32.const 0))
    (local.set $out (i32.const 32768))
    (local.set $end (i32.add (i32.const 32768) (i32.shl (local.get $count) (i32.const 5))))
    (block $described
      (loop $line
        (br_if $described (i32.ge_u (local.get $out) (local.get $end)))
        (local.set $pos (i32.load (local.get $out)))
        (call $describeLine (local.get $out) (local.get $lineStart) (local.get $pos))
        (local.set $lineStart (i32.add (local.get $pos) (i32.const 1)))
        (local.set $out (i32.add (local.get $out) (i32.const 32)))
        (br $line)))
    (local.get $count))

  ;; Lanes holding an LF, a double quote or a bidi control.
  (func $events (param $v v128) (result v128)
    (v128.or
      (v128.or
        (i16x8.eq (local.get $v) (v128.const i16x8 10 10 10 10 10 10 10 10))
        (i16x8.eq (local.get $v) (v128.const i16x8 34 34 34 34 34 34 34 34)))
      (call $marks (local.get $v))))

  ;; Fields 2-5 of the record at `out` for the line from `start` to the LF at `lf`. Tabs are
  ;; looked for only where a record can start: a digit, or a period word (U+4E0A U+4E0B U+5348
  ;; U+C624) before the hour.
  (func $describeLine (param $out i32) (param $start i32) (param $lf i32)
    (local $first i32) (local $tab1 i32) (local $tab2 i32) (local $seconds i32)
    (local.set $tab1 (i32.const -1))
    (local.set $tab2 (i32.const -1))
    (local.set $seconds (i32.const -1))
    (if (i32.lt_u (local.get $start) (local.get $lf))
      (then
        (local.set $first (call $unitAt (local.get $start)))
        (if (i32.le_u (i32.sub (local.get $first) (i32.const 48)) (i32.const 9))
          (then
            ;; "H:MM" or "HH:MM" and a tab: the first tab is known without looking for it.
            (local.set $seconds (call $leadingTime (local.get $start) (local.get $lf)))
            (local.set $tab1
              (if (result i32) (i32.ge_s (local.get $seconds) (i32.const 0))
                (then (global.get $clockEnd))
                (else (call $tabFrom (local.get $start) (local.get $lf))))))
          (else
            (if (i32.or
                  (i32.or (i32.eq (local.get $first) (i32.const 0x4e0a)) (i32.eq (local.get $first) (i32.const 0x4e0b)))
                  (i32.or (i32.eq (local.get $first) (i32.const 0x5348)) (i32.eq (local.get $first) (i32.const 0xc624))))
              (then (local.set $tab1 (call $tabFrom (local.get $start) (local.get $lf)))))))
        (if (i32.ge_s (local.get $tab1) (i32.const 0))
          (then (local.set $tab2 (call $tabFrom (i32.add (local.get $tab1) (i32.const 1)) (local.get $lf)))))))
    (i32.store offset=8 (local.get $out) (local.get $tab1))
    (i32.store offset=12 (local.get $out) (local.get $tab2))
    (i32.store offset=16 (local.get $out) (local.get $seconds))
    (i32.store offset=20 (local.get $out)
      (if (result i32) (i32.lt_s (local.get $tab2) (i32.const 0))
        (then (i32.const -1))
        (else (call $nameSlot (i32.add (local.get $tab1) (i32.const 1)) (local.get $tab2))))))

  ;; The first tab in units [from, to), or -1.
  (func $tabFrom (param $from i32) (param $to i32) (result i32)
    (local $at i32) (local $stop i32) (local $bits i32) (local $pos i32)
    (local.set $at (i32.add (i32.const 98304) (i32.shl (local.get $from) (i32.const 1))))
    (local.set $stop (i32.add (i32.const 98304) (i32.shl (local.get $to) (i32.const 1))))
    (block $none
      (loop $step
        (br_if $none (i32.ge_u (local.get $at) (local.get $stop)))
        (local.set $bits (i16x8.bitmask
          (i16x8.eq (v128.load (local.get $at)) (v128.const i16x8 9 9 9 9 9 9 9 9))))
        (if (local.get $bits)
          (then
            (local.set $pos (i32.add
              (i32.shr_u (i32.sub (local.get $at) (i32.const 98304)) (i32.const 1))
              (i32.ctz (local.get $bits))))
            (return (select (local.get $pos) (i32.const -1) (i32.lt_u (local.get $pos) (local.get $to))))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $step)))
    (i32.const -1))

  (func $unitAt (param $pos i32) (result i32)
    (i32.load16_u (i32.add (i32.const 98304) (i32.shl (local.get $pos) (i32.const 1)))))

  (func $digit (param $pos i32) (result i32)
    (i32.sub (call $unitAt (local.get $pos)) (i32.const 48)))

  ;; Where the tab after the time read by $leadingTime is.
  (global $clockEnd (mut i32) (i32.const 0))

  ;; Seconds of "H:MM" or "HH:MM" (hours 0-23) at `start` directly followed by a tab before
  ;; `lf`, setting $clockEnd to the tab; otherwise -1.
  (func $leadingTime (param $start i32) (param $lf i32) (result i32)
    (local $hour i32) (local $colon i32) (local $tens i32) (local $m1 i32) (local $m2 i32)
    (local.set $hour (call $digit (local.get $start)))
    (local.set $colon (i32.add (local.get $start) (i32.const 1)))
    (if (i32.ne (call $unitAt (local.get $colon)) (i32.const 58))
      (then
        (local.set $tens (call $digit (local.get $colon)))
        (if (i32.gt_u (local.get $tens) (i32.const 9)) (then (return (i32.const -1))))
        (local.set $hour (i32.add (i32.mul (local.get $hour) (i32.const 10)) (local.get $tens)))
        (local.set $colon (i32.add (local.get $colon) (i32.const 1)))
        (if (i32.ne (call $unitAt (local.get $colon)) (i32.const 58)) (then (return (i32.const -1))))))
    ;; Units up to the LF are the line's; the tab must come before it.
    (if (i32.ge_u (i32.add (local.get $colon) (i32.const 3)) (local.get $lf)) (then (return (i32.const -1))))
    (local.set $m1 (call $digit (i32.add (local.get $colon) (i32.const 1))))
    (local.set $m2 (call $digit (i32.add (local.get $colon) (i32.const 2))))
    ;; After subtracting '0', unsigned: a digit is 0-9.
    (if (i32.or
          (i32.or (i32.gt_u (local.get $m1) (i32.const 5)) (i32.gt_u (local.get $m2) (i32.const 9)))
          (i32.or (i32.gt_u (local.get $hour) (i32.const 23))
                  (i32.ne (call $unitAt (i32.add (local.get $colon) (i32.const 3))) (i32.const 9))))
      (then (return (i32.const -1))))
    (global.set $clockEnd (i32.add (local.get $colon) (i32.const 3)))
    (i32.add
      (i32.mul (local.get $hour) (i32.const 3600))
      (i32.mul (i32.add (i32.mul (local.get $m1) (i32.const 10)) (local.get $m2)) (i32.const 60))))

  ;; The slot of units [start, end) if that slot holds the same units, else -1. Compares eight
  ;; units per step; what a step reads past either name is masked off.
  (func $nameSlot (param $start i32) (param $end i32) (result i32)
    (local $length i32) (local $slot i32) (local $name i32) (local $at i32) (local $left i32) (local $want i32)
    (local.set $length (i32.sub (local.get $end) (local.get $start)))
    (local.set $slot (call $slotOf
      (local.get $length)
      (if (result i32) (local.get $length) (then (call $unitAt (local.get $start))) (else (i32.const 0)))
      (if (result i32) (local.get $length) (then (call $unitAt (i32.sub (local.get $end) (i32.const 1)))) (else (i32.const 0)))))
    (if (i32.ne (i32.load offset=4 (i32.shl (local.get $slot) (i32.const 3))) (local.get $length))
      (then (return (i32.const -1))))
    (local.set $name (i32.load (i32.shl (local.get $slot) (i32.const 3))))
    (local.set $at (i32.add (i32.const 98304) (i32.shl (local.get $start) (i32.const 1))))
    (local.set $left (local.get $length))
    (block $different
      (loop $step
        (if (i32.le_s (local.get $left) (i32.const 0)) (then (return (local.get $slot))))
        (local.set $want
          (if (result i32) (i32.ge_s (local.get $left) (i32.const 8))
            (then (i32.const 0xff))
            (else (i32.sub (i32.shl (i32.const 1) (local.get $left)) (i32.const 1)))))
        (br_if $different (i32.ne
          (i32.and
            (i16x8.bitmask (i16x8.eq (v128.load (local.get $name)) (v128.load (local.get $at))))
            (local.get $want))
          (local.get $want)))
        (local.set $name (i32.add (local.get $name) (i32.const 16)))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (local.set $left (i32.sub (local.get $left) (i32.const 8)))
        (br $step)))
    (i32.const -1))

  ;; Must match nameSlotOf in textIndex.ts.
  (func $slotOf (param $length i32) (param $first i32) (param $last i32) (result i32)
    (i32.and
      (i32.add (i32.add (i32.mul (local.get $first) (i32.const 31)) (local.get $last)) (i32.mul (local.get $length) (i32.const 7)))
      (i32.const 511)))
)

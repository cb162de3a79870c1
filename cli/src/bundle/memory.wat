 ;; memory.copy and memory.fill for WebAssembly 1.0, eight bytes at a time
 ;; (binaryen's own lowering copies byte by byte). Overlapping copies go
 ;; forward when the destination is below the source, else backward.
 (func $__botzone_memory_copy (param $dst i32) (param $src i32) (param $size i32)
  (if
   (i32.le_u (local.get $dst) (local.get $src))
   (then
    (block $done8
     (loop $next8
      (br_if $done8 (i32.lt_u (local.get $size) (i32.const 8)))
      (i64.store align=1 (local.get $dst) (i64.load align=1 (local.get $src)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
      (local.set $src (i32.add (local.get $src) (i32.const 8)))
      (local.set $size (i32.sub (local.get $size) (i32.const 8)))
      (br $next8)))
    (block $done1
     (loop $next1
      (br_if $done1 (i32.eqz (local.get $size)))
      (i32.store8 (local.get $dst) (i32.load8_u (local.get $src)))
      (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
      (local.set $src (i32.add (local.get $src) (i32.const 1)))
      (local.set $size (i32.sub (local.get $size) (i32.const 1)))
      (br $next1))))
   (else
    (block $bdone8
     (loop $bnext8
      (br_if $bdone8 (i32.lt_u (local.get $size) (i32.const 8)))
      (local.set $size (i32.sub (local.get $size) (i32.const 8)))
      (i64.store align=1
       (i32.add (local.get $dst) (local.get $size))
       (i64.load align=1 (i32.add (local.get $src) (local.get $size))))
      (br $bnext8)))
    (block $bdone1
     (loop $bnext1
      (br_if $bdone1 (i32.eqz (local.get $size)))
      (local.set $size (i32.sub (local.get $size) (i32.const 1)))
      (i32.store8
       (i32.add (local.get $dst) (local.get $size))
       (i32.load8_u (i32.add (local.get $src) (local.get $size))))
      (br $bnext1))))))
 (func $__botzone_memory_fill (param $dst i32) (param $val i32) (param $size i32)
  (local $wide i64)
  (local.set $wide
   (i64.mul
    (i64.extend_i32_u (i32.and (local.get $val) (i32.const 255)))
    (i64.const 0x0101010101010101)))
  (block $done8
   (loop $next8
    (br_if $done8 (i32.lt_u (local.get $size) (i32.const 8)))
    (i64.store align=1 (local.get $dst) (local.get $wide))
    (local.set $dst (i32.add (local.get $dst) (i32.const 8)))
    (local.set $size (i32.sub (local.get $size) (i32.const 8)))
    (br $next8)))
  (block $done1
   (loop $next1
    (br_if $done1 (i32.eqz (local.get $size)))
    (i32.store8 (local.get $dst) (local.get $val))
    (local.set $dst (i32.add (local.get $dst) (i32.const 1)))
    (local.set $size (i32.sub (local.get $size) (i32.const 1)))
    (br $next1))))

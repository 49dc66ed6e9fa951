// Open-addressing hash table from u64 keys to i32 values, keys and values interleaved in one
// array so a probe touches one cache line: welding a 2-million-triangle soup is bound by
// memory latency, not arithmetic. Key 0 marks a free slot (callers never pass 0).

export class U64Table {
  slots: StaticArray<u64>;   // [key, value] pairs
  mask: u32;
  size: i32 = 0;
  isNew: bool = false;

  /** Room for `expected` keys at a load factor of at most 1/2. */
  constructor(expected: i32) {
    let cap: u32 = 16;
    while (<u64>cap < <u64>expected * 2) cap <<= 1;
    this.slots = new StaticArray<u64>(<i32>cap * 2);
    this.mask = cap - 1;
  }

  /** The value stored under key, or `fresh` newly stored when the key is absent. */
  getOrAdd(key: u64, fresh: i32): i32 {
    let h = <u32>((key * 0x9E3779B97F4A7C15) >> 32) & this.mask;
    while (true) {
      const k = unchecked(this.slots[h << 1]);
      if (k == 0) {
        unchecked(this.slots[h << 1] = key);
        unchecked(this.slots[(h << 1) + 1] = <u64>fresh);
        this.size++;
        this.isNew = true;
        return fresh;
      }
      if (k == key) {
        this.isNew = false;
        return <i32>unchecked(this.slots[(h << 1) + 1]);
      }
      h = (h + 1) & this.mask;
    }
  }
}

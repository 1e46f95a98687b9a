/**
 * The benchmark catalogue's made-up lots (scripts/bench-catalogue.ts): names and descriptions drawn
 * from word lists by a seeded generator, so every run builds the same catalogue and search has varied
 * text to work through. `COMMON_WORD` is in about one lot name in eight; `RARE_WORD` in one lot
 * description in 5,000.
 */
const ADJECTIVES = `antique vintage carved brass silver painted lacquered embroidered handwoven enamelled gilded polished
  rustic ornate faded rare signed miniature heavy delicate engraved teak rosewood walnut porcelain ceramic copper bronze
  marble glass crystal leather silk cotton woollen iron steel wooden ivory-white jade amber tiled hammered beaded
  lacework folding restored original early late colonial royal temple village coastal mountain desert`.split(/\s+/);
const NOUNS = `clock lamp mirror chest cabinet teapot vase bowl plate tray jug kettle lantern statue figurine bust
  painting print map atlas camera radio gramophone typewriter sewing-machine bicycle chair stool table desk bench
  bookcase wardrobe trunk box casket ring bangle necklace earrings brooch pendant watch compass telescope sextant
  globe inkwell pen fountain-pen coin stamp album carpet rug shawl saree tapestry quilt doll puppet drum sitar tabla
  harmonium violin flute mask sword dagger shield helmet`.split(/\s+/);
const PLACES = `Jaipur Mysore Kutch Bidar Kashmir Lucknow Varanasi Kolkata Madras Goa Cochin Hyderabad Agra Surat Pune
  Tanjore Kangra Bengal Assam Sikkim Malabar Awadh Rajputana Deccan`.split(/\s+/);
const ERAS = ['1890s', '1900s', '1920s', '1930s', '1950s', '1960s', '1970s', 'Mughal era', 'Victorian', 'Art Deco', 'mid-century'];
const CONDITION = [
  'in good working order', 'with light wear consistent with age', 'recently cleaned and serviced', 'with a small repair to one corner',
  'complete with its original box', 'showing a fine patina', 'never used', 'from a private collection', 'with minor scratches',
];
const DETAIL = [
  'The maker’s mark is visible on the base.', 'Measurements are given in the photos.', 'Sold as seen; collection from the saleroom only.',
  'Provenance papers are included.', 'A matching pair is offered in another lot.', 'Some fading to the colours, as expected.',
  'Shipping within India can be arranged.', 'Hand finished by a local craftsman.', 'The key is missing.', 'Weighs about two kilograms.',
];

export const COMMON_WORD = 'vintage';
export const RARE_WORD = 'zanzibar';

/** A small deterministic generator (mulberry32): the same seed gives the same catalogue. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Lot { name: string; description: string; startingPrice: number }

export function makeLot(i: number, rnd: () => number): Lot {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const adjective = i % 8 === 0 ? COMMON_WORD : pick(ADJECTIVES);
  const noun = pick(NOUNS).replace('-', ' ');
  const name = `${adjective[0]!.toUpperCase()}${adjective.slice(1)} ${pick(ADJECTIVES)} ${noun} from ${pick(PLACES)}`;
  const rare = i % 5000 === 4999 ? ` Once shipped from ${RARE_WORD[0]!.toUpperCase()}${RARE_WORD.slice(1)}.` : '';
  const description = `A ${pick(ERAS)} ${noun}, ${pick(CONDITION)}. ${pick(DETAIL)} ${pick(DETAIL)}${rare}`;
  return { name, description, startingPrice: 100 * (1 + Math.floor(rnd() * 200)) };
}

/** An auction's name, e.g. "Kutch 1930s sale 42". */
export function auctionName(i: number, rnd: () => number): string {
  return `${PLACES[Math.floor(rnd() * PLACES.length)]!} ${ERAS[Math.floor(rnd() * ERAS.length)]!} sale ${i + 1}`;
}

/** Two levels of categories, as an admin would set them up. */
export const CATEGORIES: { name: string; children: string[] }[] = [
  { name: 'Furniture', children: ['Chairs and stools', 'Cabinets and chests'] },
  { name: 'Jewellery', children: ['Rings', 'Necklaces'] },
  { name: 'Clocks and instruments', children: [] },
  { name: 'Textiles', children: ['Carpets and rugs'] },
  { name: 'Art', children: ['Paintings', 'Prints and maps'] },
  { name: 'Music', children: [] },
];

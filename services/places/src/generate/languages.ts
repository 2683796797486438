import type { Random } from './random.ts';

/**
 * How addresses and independent places' names look in each language: street types and name stems, the order of
 * house number and street, surnames for "Boulangerie Martin", and the iD presets' translation to name a place
 * after its category. Word lists are common street names and surnames of each country (general knowledge, no
 * data set); `words()` splits the '|'-separated lists.
 */
export interface Language {
  /** The id-tagging-schema translation file for category names ("fr", "de", "pt-BR"). */
  presets: string;
  street(random: Random, house: number): string;
  surnames: readonly string[];
  /** A name for an independent place of a category whose local name is `kind`. */
  name(random: Random, kind: string, surname: string, stem: string): string;
  /** Name stems (streets, places) also used in names. */
  stems: readonly string[];
  /** A name that says what the place is ("Apotheke Müller", "Victoria Museum"), for kinds the forms above misname. */
  kindName(kind: string, surname: string, stem: string): string;
  /** The largest house number (American streets run into the thousands; most others stay low). */
  maxHouse: number;
}

const words = (list: string): string[] => list.split('|');

const pickOf = (random: Random, list: readonly string[]) => list[random.int(list.length)]!;

/** A language whose street line is `type stem` or `stem type`, with the house number before or after. */
function plain(options: {
  presets: string;
  types: string;
  stems: string;
  surnames: string;
  line: (type: string, stem: string, house: number) => string;
  name?: Language['name'];
  kindName?: Language['kindName'];
  maxHouse?: number;
}): Language {
  const types = words(options.types);
  const stems = words(options.stems);
  return {
    presets: options.presets,
    stems,
    surnames: words(options.surnames),
    street: (random, house) => options.line(pickOf(random, types), pickOf(random, stems), house),
    kindName: options.kindName ?? ((kind, surname) => `${kind} ${surname}`),
    maxHouse: options.maxHouse ?? 199,
    name:
      options.name ??
      ((random, kind, surname, stem) => {
        switch (random.int(3)) {
          case 0:
            return `${kind} ${surname}`;
          case 1:
            return `${kind} ${stem}`;
          default:
            return surname;
        }
      }),
  };
}

const FRENCH = plain({
  presets: 'fr',
  types: 'Rue|Rue|Rue|Rue|Avenue|Boulevard|Place|Impasse|Allée|Quai|Chemin',
  stems:
    'de la République|Victor Hugo|Jean Jaurès|de la Paix|Pasteur|du Général de Gaulle|de la Gare|du Marché|des Écoles|Voltaire|Gambetta|de Verdun|Émile Zola|Carnot|de la Liberté|du Moulin|des Lilas|Saint-Martin|de Paris|des Tilleuls|Molière|Jules Ferry|de l’Église|Nationale|du Château|Lafayette|Denfert-Rochereau|Montmartre|de Rivoli|Saint-Honoré',
  surnames:
    'Martin|Bernard|Dubois|Thomas|Robert|Richard|Petit|Durand|Leroy|Moreau|Simon|Laurent|Lefebvre|Michel|Garcia|David|Bertrand|Roux|Vincent|Fournier|Morel|Girard|André|Mercier|Dupont|Lambert|Bonnet|François|Martinez|Legrand',
  line: (type, stem, house) => `${house} ${type} ${stem}`,
  name: (random, kind, surname, stem) => {
    switch (random.int(4)) {
      case 0:
        return `${kind} ${surname}`;
      case 1:
        return `${kind} ${stem.replace(/^(de la|du|des|de l’|de) /, (m) => m)}`;
      case 2:
        return `Le ${pickOf(random, ['Petit', 'Grand', 'Bon', 'Vieux', 'Beau'])} ${pickOf(random, ['Zinc', 'Comptoir', 'Marché', 'Jardin', 'Moulin', 'Coin', 'Pont'])}`;
      default:
        return `Chez ${surname}`;
    }
  },
});

const GERMAN = plain({
  presets: 'de',
  types: 'straße|straße|straße|weg|gasse|platz|allee|ring',
  stems:
    'Haupt|Bahnhof|Kirch|Schul|Garten|Berg|Wald|Markt|Linden|Birken|Mühlen|Rosen|Schiller|Goethe|Park|Feld|Wiesen|Sonnen|Friedrich|Kaiser|Mozart|Post|Dorf|Buchen|Eichen|Tannen|Bismarck|Luisen|Wilhelm|Uhland',
  surnames:
    'Müller|Schmidt|Schneider|Fischer|Weber|Meyer|Wagner|Becker|Schulz|Hoffmann|Schäfer|Koch|Bauer|Richter|Klein|Wolf|Schröder|Neumann|Schwarz|Zimmermann|Braun|Krüger|Hofmann|Hartmann|Lange|Schmitt|Werner|Krause|Meier|Lehmann',
  line: (type, stem, house) => `${stem}${type} ${house}`,
  name: (random, kind, surname, stem) => {
    switch (random.int(4)) {
      case 0:
        return `${kind} ${surname}`;
      case 1:
        return `${stem}${pickOf(random, ['-', ' '])}${kind}`.replace(/- /, '-');
      case 2:
        return `Zum ${pickOf(random, ['Goldenen Hirsch', 'Schwarzen Adler', 'Grünen Baum', 'Roten Ochsen', 'Alten Fritz', 'Löwen'])}`;
      default:
        return `${kind} am ${pickOf(random, ['Markt', 'Bahnhof', 'Park', 'Ring', 'Dom', 'Tor'])}`;
    }
  },
});

const SPANISH = plain({
  presets: 'es',
  types: 'Calle|Calle|Calle|Avenida|Avenida|Paseo|Plaza|Camino',
  stems:
    'Mayor|de la Paz|Real|del Sol|San José|de la Constitución|Nueva|del Carmen|Hidalgo|Juárez|Independencia|San Martín|Bolívar|Morelos|de Cervantes|de la Iglesia|Libertad|Reforma|Sarmiento|Belgrano|Colón|de los Olivos|Rivadavia|Santa Ana|del Mar|de las Flores|Alcalá|Gran Vía|de Goya|Insurgentes',
  surnames:
    'García|Rodríguez|González|Fernández|López|Martínez|Sánchez|Pérez|Gómez|Martín|Jiménez|Ruiz|Hernández|Díaz|Moreno|Álvarez|Romero|Torres|Ramírez|Flores|Vargas|Castillo|Morales|Ortiz|Silva|Rojas|Mendoza|Herrera|Medina|Castro',
  line: (type, stem, house) => `${type} ${stem} ${house}`,
  name: (random, kind, surname, stem) => {
    switch (random.int(4)) {
      case 0:
        return `${kind} ${surname}`;
      case 1:
        return `${kind} ${stem.replace(/^(de la|del|de los|de las|de) /, '')}`;
      case 2:
        return `El ${pickOf(random, ['Rincón', 'Buen Sabor', 'Patio', 'Mirador', 'Molino', 'Faro'])}`;
      default:
        return `Casa ${surname}`;
    }
  },
});

const PORTUGUESE = plain({
  presets: 'pt',
  types: 'Rua|Rua|Rua|Avenida|Avenida|Travessa|Praça|Largo|Alameda',
  stems:
    'da Liberdade|das Flores|Augusta|São João|da República|Sete de Setembro|Quinze de Novembro|Tiradentes|Dom Pedro II|Getúlio Vargas|Rio Branco|Paulista|Santos Dumont|do Comércio|da Paz|Marechal Deodoro|José Bonifácio|Barão do Rio Branco|do Carmo|Santa Catarina|da Consolação|Brasil|Floriano Peixoto|da Glória|Duque de Caxias',
  surnames:
    'Silva|Santos|Oliveira|Souza|Rodrigues|Ferreira|Alves|Pereira|Lima|Gomes|Costa|Ribeiro|Martins|Carvalho|Almeida|Lopes|Soares|Fernandes|Vieira|Barbosa|Rocha|Dias|Nascimento|Andrade|Moreira|Nunes|Marques|Machado|Mendes|Freitas',
  line: (type, stem, house) => `${type} ${stem}, ${house}`,
});

const ITALIAN = plain({
  presets: 'it',
  types: 'Via|Via|Via|Via|Viale|Piazza|Corso|Vicolo|Largo',
  stems:
    'Roma|Garibaldi|Giuseppe Verdi|Dante Alighieri|Mazzini|Cavour|Vittorio Emanuele II|XX Settembre|della Repubblica|Marconi|Matteotti|Umberto I|dei Mille|della Libertà|San Francesco|Nazionale|del Corso|Manzoni|Gramsci|Leopardi|della Stazione|Venezia|Trieste|IV Novembre|dei Fiori',
  surnames:
    'Rossi|Russo|Ferrari|Esposito|Bianchi|Romano|Colombo|Ricci|Marino|Greco|Bruno|Gallo|Conti|De Luca|Mancini|Costa|Giordano|Rizzo|Lombardi|Moretti|Barbieri|Fontana|Santoro|Mariani|Rinaldi|Caruso|Ferrara|Galli|Martini|Leone',
  line: (type, stem, house) => `${type} ${stem}, ${house}`,
  name: (random, kind, surname, stem) => {
    switch (random.int(4)) {
      case 0:
        return `${kind} ${surname}`;
      case 1:
        return `${kind} ${stem}`;
      case 2:
        return `Da ${pickOf(random, ['Mario', 'Gino', 'Peppe', 'Franco', 'Luigi', 'Nonna Rosa'])}`;
      default:
        return `Il ${pickOf(random, ['Gabbiano', 'Ponte', 'Giardino', 'Mulino', 'Portico', 'Sole'])}`;
    }
  },
});

const DUTCH = plain({
  presets: 'nl',
  types: 'straat|straat|straat|weg|laan|plein|gracht|dijk|singel',
  stems:
    'Kerk|Dorps|Molen|Stations|School|Markt|Hoog|Nieuwe|Linden|Beuken|Eiken|Julianna|Wilhelmina|Oranje|Prinsen|Keizers|Heren|Vondel|Rembrandt|Parallel',
  surnames:
    'de Jong|Jansen|de Vries|van den Berg|van Dijk|Bakker|Janssen|Visser|Smit|Meijer|de Boer|Mulder|de Groot|Bos|Vos|Peters|Hendriks|van Leeuwen|Dekker|Brouwer|Peeters|Maes|Willems|Claes|Goossens',
  line: (type, stem, house) => `${stem}${type} ${house}`,
});

const ENGLISH_NAME: Language['name'] = (random, kind, surname, stem) => {
  switch (random.int(4)) {
    case 0:
      return `${surname}'s ${kind}`;
    case 1:
      return `${stem} Street ${kind}`;
    case 2:
      return `The ${pickOf(random, ['Golden', 'Blue', 'Red', 'Little', 'Old', 'Royal', 'Green', 'Corner'])} ${pickOf(random, ['Oak', 'Lantern', 'Anchor', 'Fox', 'Crown', 'Spoon', 'Bell', 'Swan'])}`;
    default:
      return `${surname} & ${pickOf(random, ['Sons', 'Co.', 'Partners'])}`;
  }
};

/** American (and Canadian) streets: numbers into the thousands, "Dr", "Blvd", presidents' names. */
const ENGLISH = plain({
  presets: 'en',
  types: 'St|St|St|Rd|Rd|Ave|Ln|Dr|Way|Blvd|Pl',
  stems:
    'Main|Church|Market|Station|Park|Mill|High|Bridge|Garden|Lake|River|Hill|Oak|Maple|Cedar|Elm|King|Queen|Victoria|Albert|Washington|Lincoln|Franklin|Jefferson|Union|Water|Spring|Pine|Chestnut|Broad',
  surnames:
    "Smith|Johnson|Williams|Brown|Jones|Miller|Davis|Wilson|Taylor|Anderson|Thomas|Moore|Jackson|Martin|Lee|Thompson|White|Harris|Clark|Lewis|Walker|Hall|Young|King|Wright|Hughes|Evans|Murphy|O'Brien|Kelly",
  line: (type, stem, house) => `${house} ${stem} ${type}`,
  name: ENGLISH_NAME,
  kindName: (kind, _surname, stem) => `${stem} ${kind}`,
  maxHouse: 4999,
});

/** British, Irish and Commonwealth streets: low numbers, Street/Road/Lane, no American presidents. */
const BRITISH = plain({
  presets: 'en',
  types: 'Street|Street|Road|Road|Lane|Avenue|Close|Gardens|Terrace|Crescent|Place|Grove',
  stems:
    'High|Church|Market|Station|Park|Mill|Bridge|Garden|Victoria|Albert|King|Queen|Castle|Manor|London|Green|Chapel|North|South|West|York|Princes|Grange|Springfield|Elm|Oak|Beech|Meadow|School|New',
  surnames:
    "Smith|Jones|Williams|Taylor|Brown|Davies|Evans|Wilson|Thomas|Roberts|Johnson|Lewis|Walker|Robinson|Wood|Thompson|White|Watson|Jackson|Wright|Green|Harris|Cooper|King|Lee|Martin|Clarke|James|Morgan|O'Brien",
  line: (type, stem, house) => `${house} ${stem} ${type}`,
  name: ENGLISH_NAME,
  kindName: (kind, _surname, stem) => `${stem} ${kind}`,
});

/** English-language addresses with a country's own street names (India, Thailand, the Arab world, Israel…). */
function englishWith(stems: string, surnames: string, types = 'Road|Street|St|Rd|Avenue'): Language {
  return plain({
    presets: 'en',
    types,
    stems,
    surnames,
    line: (type, stem, house) => `${house} ${stem} ${type}`,
    name: ENGLISH.name,
    kindName: ENGLISH.kindName,
  });
}

const INDIA = englishWith(
  'MG|Station|Nehru|Gandhi|Tilak|Park|Linking|Church|Brigade|Residency|Ashok|Rajaji|Subhash|Patel',
  'Sharma|Patel|Singh|Kumar|Gupta|Reddy|Rao|Iyer|Nair|Mehta|Joshi|Das|Shah|Verma|Agarwal|Chopra',
);
const ARABIC = englishWith(
  'Al Tahrir|Al Nasr|Al Salam|King Fahd|King Abdullah|Al Jumhuriya|Al Horreya|Palestine|Al Nil|Al Corniche|Sheikh Zayed|Al Rashid|Omar Ibn Al Khattab|Al Malik Faisal',
  'Haddad|Mansour|Khalil|Hassan|Ibrahim|Saleh|Nasser|Farouk|Youssef|Aziz|Karim|Hamdan',
  'Street|St|Road|Rd',
);
const THAI = englishWith(
  'Sukhumvit|Silom|Rama IV|Phahonyothin|Ratchadaphisek|Charoen Krung|Petchaburi|Ratchadamri|Sathon|Phetkasem|Lat Phrao|Ramkhamhaeng',
  'Srisuk|Chaiyaporn|Wongsawat|Rattanakorn|Suwannarat|Thongchai|Boonmee|Kittisak',
  'Rd|Road|Soi',
);
const HEBREW = englishWith(
  'Herzl|Dizengoff|Ben Yehuda|Allenby|Rothschild|Jabotinsky|King George|Weizmann|Ibn Gabirol|HaNevi’im|Jaffa|Bialik',
  'Cohen|Levi|Mizrahi|Peretz|Biton|Friedman|Azoulay|Katz|Dahan|Avraham',
  'St|Street|Blvd',
);
const PERSIAN = englishWith(
  'Valiasr|Enghelab|Azadi|Ferdowsi|Jomhouri|Shariati|Motahari|Taleghani|Hafez|Saadi',
  'Hosseini|Ahmadi|Mohammadi|Karimi|Rezaei|Moradi|Rahimi|Jafari',
  'St|Street|Ave',
);

const INDONESIAN = plain({
  presets: 'id',
  types: 'Jl.|Jl.|Jalan|Gg.',
  stems:
    'Sudirman|Thamrin|Gatot Subroto|Merdeka|Diponegoro|Gajah Mada|Hayam Wuruk|Ahmad Yani|Pemuda|Veteran|Asia Afrika|Pahlawan|Kartini|Imam Bonjol',
  surnames: 'Santoso|Wijaya|Saputra|Hidayat|Kusuma|Pratama|Susanto|Nugroho|Halim|Setiawan|Gunawan|Putri',
  line: (type, stem, house) => `${type} ${stem} No. ${house}`,
});
const MALAY = plain({
  presets: 'ms',
  types: 'Jalan|Jalan|Lorong|Persiaran',
  stems:
    'Ampang|Bukit Bintang|Tun Razak|Sultan Ismail|Raja Laut|Pudu|Imbi|Tunku Abdul Rahman|Masjid India|Klang Lama|Cheras|Ipoh',
  surnames: 'Abdullah|Ismail|Ibrahim|Tan|Lim|Lee|Wong|Ahmad|Hassan|Rahman|Kumar|Ong',
  line: (type, stem, house) => `${house}, ${type} ${stem}`,
});
const VIETNAMESE = plain({
  presets: 'vi',
  types: 'Đường|Phố',
  stems:
    'Lê Lợi|Trần Hưng Đạo|Nguyễn Huệ|Hai Bà Trưng|Lý Thường Kiệt|Điện Biên Phủ|Nguyễn Trãi|Lê Duẩn|Pasteur|Đồng Khởi|Hàng Bạc|Bà Triệu|Cách Mạng Tháng Tám',
  surnames: 'Nguyễn|Trần|Lê|Phạm|Hoàng|Huỳnh|Phan|Vũ|Võ|Đặng|Bùi|Đỗ',
  line: (_type, stem, house) => `${house} ${stem}`,
});
const TURKISH = plain({
  presets: 'tr',
  types: 'Cd.|Cd.|Sk.|Sk.|Blv.',
  stems:
    'Atatürk|Cumhuriyet|İstiklal|İnönü|Gazi|Fevzi Çakmak|Bağdat|Mimar Sinan|Fatih|Barbaros|Mevlana|Menderes|Kızılay|Halaskargazi',
  surnames:
    'Yılmaz|Kaya|Demir|Şahin|Çelik|Yıldız|Yıldırım|Öztürk|Aydın|Özdemir|Arslan|Doğan|Kılıç|Aslan|Çetin|Kara',
  line: (type, stem, house) => `${stem} ${type} No:${house}`,
});
const POLISH = plain({
  presets: 'pl',
  types: 'ul.|ul.|ul.|al.|pl.',
  stems:
    'Marszałkowska|Długa|Polna|Lipowa|Kościuszki|Mickiewicza|Słowackiego|Piłsudskiego|Ogrodowa|Szkolna|Kościelna|Sienkiewicza|Chopina|Kwiatowa|Leśna|Floriańska',
  surnames:
    'Nowak|Kowalski|Wiśniewski|Wójcik|Kowalczyk|Kamiński|Lewandowski|Zieliński|Szymański|Woźniak|Dąbrowski|Kozłowski',
  line: (type, stem, house) => `${type} ${stem} ${house}`,
});
const CZECH = plain({
  presets: 'cs',
  types: '',
  stems:
    'Národní|Husova|Palackého|Masarykova|Nádražní|Školní|Komenského|Jiráskova|Nerudova|Vinohradská|Karlova|Smetanova|Žižkova|Zahradní',
  surnames: 'Novák|Svoboda|Novotný|Dvořák|Černý|Procházka|Kučera|Veselý|Horák|Němec|Marek|Pokorný',
  line: (_type, stem, house) => `${stem} ${house}`,
});
const HUNGARIAN = plain({
  presets: 'hu',
  types: 'utca|utca|utca|út|tér|körút',
  stems:
    'Petőfi|Kossuth Lajos|Rákóczi|Béke|Ady Endre|Dózsa György|Széchenyi|József Attila|Arany János|Váci|Andrássy|Bartók Béla',
  surnames: 'Nagy|Kovács|Tóth|Szabó|Horváth|Varga|Kiss|Molnár|Németh|Farkas|Balogh|Papp',
  line: (type, stem, house) => `${stem} ${type} ${house}`,
});
const ROMANIAN = plain({
  presets: 'ro',
  types: 'Strada|Strada|Str.|Bulevardul|Calea',
  stems:
    'Mihai Eminescu|Unirii|Victoriei|Libertății|Republicii|Ștefan cel Mare|Mihai Viteazu|Independenței|Florilor|Avram Iancu|Lipscani|Magheru',
  surnames: 'Popescu|Ionescu|Popa|Pop|Radu|Dumitru|Stan|Stoica|Gheorghe|Matei|Ciobanu|Rusu',
  line: (type, stem, house) => `${type} ${stem} ${house}`,
});
const GREEK = plain({
  presets: 'el',
  types: '',
  stems:
    'Ερμού|Αθηνάς|Πανεπιστημίου|Σταδίου|Ακαδημίας|Πατησίων|Τσιμισκή|Εγνατίας|Βασιλίσσης Σοφίας|Μητροπόλεως|Αιόλου|Κηφισίας',
  surnames: 'Παπαδόπουλος|Παπαδάκης|Γεωργίου|Νικολάου|Οικονόμου|Παππάς|Βασιλείου|Αθανασίου|Δημητρίου|Ιωάννου',
  line: (_type, stem, house) => `${stem} ${house}`,
});
/** Scandinavian street names are one word: stem + type ("Storgatan 12"). */
function nordic(presets: string, types: string, stems: string, surnames: string): Language {
  return plain({ presets, types, stems, surnames, line: (type, stem, house) => `${stem}${type} ${house}` });
}
const SWEDISH = nordic(
  'sv',
  'gatan|gatan|vägen|torget|backen',
  'Stor|Kyrko|Skol|Drottning|Kungs|Sjö|Park|Strand|Järnvägs|Ring|Hamn|Bruks',
  'Andersson|Johansson|Karlsson|Nilsson|Eriksson|Larsson|Olsson|Persson|Svensson|Gustafsson|Lindberg|Lindqvist',
);
const NORWEGIAN = nordic(
  'nb',
  'gata|gata|veien|gate|plassen',
  'Stor|Kirke|Skole|Dronning|Kongens|Sjø|Park|Strand|Jernbane|Torg|Havne|Bygdøy',
  'Hansen|Johansen|Olsen|Larsen|Andersen|Pedersen|Nilsen|Kristiansen|Jensen|Karlsen|Berg|Haugen',
);
const DANISH = nordic(
  'da',
  'gade|gade|vej|vej|torv|allé',
  'Vester|Øster|Nørre|Søndre|Kirke|Skole|Strand|Havne|Park|Møllе|Bred|Kongens',
  'Nielsen|Jensen|Hansen|Pedersen|Andersen|Christensen|Larsen|Sørensen|Rasmussen|Jørgensen|Madsen|Kristensen',
);
const FINNISH = nordic(
  'fi',
  'katu|katu|tie|kuja|polku',
  'Kauppa|Koulu|Asema|Kirkko|Mannerheimin|Puisto|Ranta|Mäki|Satama|Linnan|Aleksanterin|Hämeen',
  'Korhonen|Virtanen|Mäkinen|Nieminen|Mäkelä|Hämäläinen|Laine|Heikkinen|Koskinen|Järvinen|Lehtonen|Saarinen',
);
const RUSSIAN = plain({
  presets: 'ru',
  types: 'ул.|ул.|ул.|пр-т|пер.|наб.',
  stems:
    'Ленина|Гагарина|Пушкина|Мира|Советская|Кирова|Садовая|Лесная|Школьная|Молодёжная|Тверская|Арбат|Чехова|Горького|Победы|Московская',
  surnames: 'Иванов|Смирнов|Кузнецов|Попов|Васильев|Петров|Соколов|Михайлов|Новиков|Фёдоров|Морозов|Волков',
  line: (type, stem, house) => `${type} ${stem}, ${house}`,
  name: (random, kind, surname, stem) => (random.chance(0.5) ? `${kind} «${surname}»` : `${kind} на ${stem}`),
  kindName: (kind, surname) => `${kind} «${surname}»`,
});
const UKRAINIAN = plain({
  presets: 'uk',
  types: 'вул.|вул.|вул.|просп.|пров.',
  stems:
    'Шевченка|Франка|Грушевського|Лесі Українки|Хмельницького|Хрещатик|Сагайдачного|Соборна|Садова|Миру|Незалежності|Героїв',
  surnames:
    'Мельник|Шевченко|Коваленко|Бондаренко|Бойко|Ткаченко|Кравченко|Ковальчук|Коваль|Олійник|Шевчук|Поліщук',
  line: (type, stem, house) => `${type} ${stem}, ${house}`,
  name: (random, kind, surname) => (random.chance(0.5) ? `${kind} «${surname}»` : surname),
  kindName: (kind, surname) => `${kind} «${surname}»`,
});
/**
 * Japanese: names in Japanese, the street part of addresses in the Hepburn romanization of the same town
 * quarters, so the formatted address ("〒170-8500 Tokyo Minamimachi 3-22-6") keeps to one script beside the
 * gazetteer's town names.
 */
const JAPANESE_QUARTERS =
  'Honcho|Nakamachi|Sakaemachi|Midoricho|Asahimachi|Showacho|Otemachi|Shinmachi|Higashimachi|Nishimachi|Minamimachi|Kitamachi|Miyamae|Sakuragicho|Jinnan|Ginza|Nishiki|Motomachi|Marunouchi|Dogenzaka'.split(
    '|',
  );
const JAPANESE: Language = {
  ...plain({
    presets: 'ja',
    types: '',
    stems:
      '本町|中町|栄町|緑町|旭町|昭和町|大手町|新町|東町|西町|南町|北町|宮前|桜木町|神南|銀座|錦|元町|丸の内|道玄坂',
    surnames: '佐藤|鈴木|高橋|田中|伊藤|渡辺|山本|中村|小林|加藤|吉田|山田|佐々木|山口|松本|井上',
    line: () => '',
    name: (random, kind, surname, stem) => (random.chance(0.5) ? `${kind} ${surname}` : `${stem}${kind}`),
    kindName: (kind, _surname, stem) => `${stem}${kind}`,
  }),
  street: (random, house) =>
    `${pickOf(random, JAPANESE_QUARTERS)} ${(house % 5) + 1}-${(house % 27) + 1}-${(house % 13) + 1}`,
};
const CHINESE = plain({
  presets: 'zh-CN',
  types: '路|路|路|街|大道',
  stems: '人民|解放|中山|建设|和平|长江|南京|北京|文化|胜利|新华|东风|青年|光明|幸福|朝阳',
  surnames: '王|李|张|刘|陈|杨|黄|赵|吴|周|徐|孙|马|朱|胡|郭',
  line: (type, stem, house) => `${stem}${type}${house}号`,
  name: (random, kind, surname, stem) => (random.chance(0.5) ? `${surname}记${kind}` : `${stem}${kind}`),
  kindName: (kind, _surname, stem) => `${stem}${kind}`,
});
const TAIWANESE = plain({
  presets: 'zh-TW',
  types: '路|路|街|大道',
  stems: '中山|中正|民生|民權|忠孝|仁愛|信義|和平|復興|敦化|建國|光復',
  surnames: '陳|林|黃|張|李|王|吳|劉|蔡|楊',
  line: (type, stem, house) => `${stem}${type}${house}號`,
  name: (random, kind, surname, stem) => (random.chance(0.5) ? `${surname}記${kind}` : `${stem}${kind}`),
  kindName: (kind, _surname, stem) => `${stem}${kind}`,
});
const KOREAN = plain({
  presets: 'ko',
  types: '로|로|길|대로',
  stems: '세종|중앙|시청|역삼|테헤란|을지|종|한강|강남|명동|충무|퇴계|청계|삼일',
  surnames: '김|이|박|최|정|강|조|윤|장|임|한|오',
  line: (type, stem, house) => `${stem}${type} ${house}`,
  name: (random, kind, surname, stem) => (random.chance(0.5) ? `${surname}네 ${kind}` : `${stem} ${kind}`),
  kindName: (kind, _surname, stem) => `${stem} ${kind}`,
});

const LANGUAGES = {
  fr: FRENCH,
  de: GERMAN,
  es: SPANISH,
  pt: PORTUGUESE,
  it: ITALIAN,
  nl: DUTCH,
  en: ENGLISH,
  gb: BRITISH,
  in: INDIA,
  ar: ARABIC,
  th: THAI,
  he: HEBREW,
  fa: PERSIAN,
  id: INDONESIAN,
  ms: MALAY,
  vi: VIETNAMESE,
  tr: TURKISH,
  pl: POLISH,
  cs: CZECH,
  hu: HUNGARIAN,
  ro: ROMANIAN,
  el: GREEK,
  sv: SWEDISH,
  no: NORWEGIAN,
  da: DANISH,
  fi: FINNISH,
  ru: RUSSIAN,
  uk: UKRAINIAN,
  ja: JAPANESE,
  zh: CHINESE,
  tw: TAIWANESE,
  ko: KOREAN,
} satisfies Record<string, Language>;

type LanguageKey = keyof typeof LANGUAGES;

/** American streets only where they are written so; every other country without a table of its own: British. */
const AMERICAN = new Set(['US', 'CA', 'PR', 'GU', 'VI', 'AS', 'MP', 'UM']);

/** Countries by the language their addresses are written in; every other country: English. */
const COUNTRIES: Record<Exclude<LanguageKey, 'en' | 'gb'>, string> = {
  fr: 'FR MC LU SN CI ML BF NE GN CM CD CG GA TG BJ MG HT TD CF DJ BI MA DZ TN RE GP MQ GF NC PF YT PM BL MF WF KM MR',
  de: 'DE AT LI',
  es: 'ES MX AR CO CL PE VE EC BO PY UY CR PA GT HN SV NI DO CU PR GQ',
  pt: 'PT BR AO MZ CV GW ST TL',
  it: 'IT SM VA',
  nl: 'NL SR AW CW SX BQ',
  in: 'IN NP BD LK',
  ar: 'EG SA AE QA KW BH OM YE JO LB SY IQ LY SD PS',
  th: 'TH',
  he: 'IL',
  fa: 'IR AF',
  id: 'ID',
  ms: 'MY BN',
  vi: 'VN',
  tr: 'TR',
  pl: 'PL',
  cs: 'CZ SK',
  hu: 'HU',
  ro: 'RO MD',
  el: 'GR CY',
  sv: 'SE AX',
  no: 'NO SJ',
  da: 'DK FO GL',
  fi: 'FI',
  ru: 'RU BY KZ KG TJ',
  uk: 'UA',
  ja: 'JP',
  zh: 'CN',
  tw: 'TW',
  ko: 'KR',
};

const BY_COUNTRY = new Map<string, Language>();
for (const [key, list] of Object.entries(COUNTRIES))
  for (const country of list.split(' ')) BY_COUNTRY.set(country, LANGUAGES[key as LanguageKey]);

/** French-speaking regions of bilingual countries (the gazetteer's region): Belgium, Switzerland, Canada. */
const FRENCH_REGIONS = new Set([
  'BE.Brussels Capital',
  'BE.Wallonia',
  'CH.Geneva',
  'CH.Vaud',
  'CH.Neuchâtel',
  'CH.Jura',
  'CH.Fribourg',
  'CH.Valais',
  'CA.QC',
]);

/** The language of addresses in a city: by country, and by region where a country has several. */
export function languageOf(country: string, region: string | null): Language {
  const key = `${country}.${region ?? ''}`;
  if (FRENCH_REGIONS.has(key)) return FRENCH;
  if (country === 'CH') return key === 'CH.Ticino' ? ITALIAN : GERMAN;
  if (country === 'BE') return DUTCH;
  return BY_COUNTRY.get(country) ?? (AMERICAN.has(country) ? ENGLISH : BRITISH);
}

import type { PlaceKind } from './kinds.ts';

/**
 * The texts of derived tips, in the language of the place's country where we have one (English elsewhere).
 * Short, everyday remarks of the kind people leave; `{name}` is the place's name.
 */
export type TipLanguage = 'en' | 'fr' | 'de' | 'es' | 'it' | 'pt' | 'nl';

const LANGUAGE_OF: Record<string, TipLanguage> = {
  FR: 'fr',
  BE: 'fr',
  LU: 'fr',
  MC: 'fr',
  SN: 'fr',
  CI: 'fr',
  MA: 'fr',
  TN: 'fr',
  DZ: 'fr',
  HT: 'fr',
  DE: 'de',
  AT: 'de',
  CH: 'de',
  LI: 'de',
  ES: 'es',
  MX: 'es',
  AR: 'es',
  CO: 'es',
  CL: 'es',
  PE: 'es',
  VE: 'es',
  EC: 'es',
  GT: 'es',
  CU: 'es',
  BO: 'es',
  DO: 'es',
  HN: 'es',
  PY: 'es',
  SV: 'es',
  NI: 'es',
  CR: 'es',
  PA: 'es',
  UY: 'es',
  IT: 'it',
  SM: 'it',
  PT: 'pt',
  BR: 'pt',
  AO: 'pt',
  MZ: 'pt',
  NL: 'nl',
  SR: 'nl',
};

export const languageOf = (country: string | null): TipLanguage =>
  (country ? LANGUAGE_OF[country] : undefined) ?? 'en';

type Texts = Record<PlaceKind, readonly string[]>;

const EN: Texts = {
  food: [
    'The daily special is worth it.',
    'Book ahead on weekends, {name} fills up fast.',
    'Generous portions and friendly staff.',
    'Save room for dessert.',
  ],
  drink: [
    'Great coffee and a quiet corner to read.',
    'Happy hour until seven.',
    'Try the house special, you will not regret it.',
    'Cosy spot, good music.',
  ],
  shop: [
    'Friendly staff who know their stock.',
    'Good prices, check the back shelves.',
    'Open late, handy after work.',
    'Busy on Saturdays, come early.',
  ],
  outdoor: [
    'Lovely at sunset.',
    'Bring a picnic, there are benches in the shade.',
    'Quieter early in the morning.',
    'Great place for a walk with kids.',
  ],
  culture: [
    'Plan at least two hours.',
    'Free entry on the first Sunday of the month.',
    'The audio guide is worth it.',
    'Do not miss the top floor.',
  ],
  stay: [
    'Clean rooms and helpful reception.',
    'Ask for a room facing the courtyard, it is quieter.',
    'Breakfast is good value.',
    'Close to public transport.',
  ],
  general: [
    'Friendly and efficient.',
    'Easy to reach by public transport.',
    'Call ahead to check the hours.',
    'Quick service.',
  ],
};

const FR: Texts = {
  food: [
    'Le plat du jour vaut le détour.',
    'Réservez le week-end, {name} est vite complet.',
    'Portions généreuses et service aimable.',
    'Gardez de la place pour le dessert.',
  ],
  drink: [
    'Très bon café et un coin calme pour lire.',
    'Happy hour jusqu’à 19 h.',
    'Goûtez la spécialité de la maison.',
    'Endroit cosy, bonne musique.',
  ],
  shop: [
    'Personnel aimable et de bon conseil.',
    'Bons prix, regardez au fond du magasin.',
    'Ouvert tard, pratique après le travail.',
    'Beaucoup de monde le samedi, venez tôt.',
  ],
  outdoor: [
    'Magnifique au coucher du soleil.',
    'Parfait pour un pique-nique à l’ombre.',
    'Plus calme tôt le matin.',
    'Idéal pour une promenade avec les enfants.',
  ],
  culture: [
    'Prévoyez au moins deux heures.',
    'Entrée gratuite le premier dimanche du mois.',
    'L’audioguide vaut la peine.',
    'Ne manquez pas le dernier étage.',
  ],
  stay: [
    'Chambres propres et accueil serviable.',
    'Demandez une chambre sur cour, plus calme.',
    'Petit-déjeuner d’un bon rapport qualité-prix.',
    'Près des transports en commun.',
  ],
  general: [
    'Accueil aimable et efficace.',
    'Facile d’accès en transports en commun.',
    'Appelez avant pour vérifier les horaires.',
    'Service rapide.',
  ],
};

const DE: Texts = {
  food: [
    'Das Tagesgericht lohnt sich.',
    'Am Wochenende reservieren, {name} ist schnell voll.',
    'Große Portionen und freundliches Personal.',
    'Unbedingt Platz für den Nachtisch lassen.',
  ],
  drink: [
    'Guter Kaffee und eine ruhige Ecke zum Lesen.',
    'Happy Hour bis 19 Uhr.',
    'Die Spezialität des Hauses probieren.',
    'Gemütlich, gute Musik.',
  ],
  shop: [
    'Freundliche und kompetente Beratung.',
    'Gute Preise, auch hinten im Laden schauen.',
    'Lange geöffnet, praktisch nach der Arbeit.',
    'Samstags voll, früh kommen.',
  ],
  outdoor: [
    'Wunderschön bei Sonnenuntergang.',
    'Ideal für ein Picknick im Schatten.',
    'Frühmorgens ruhiger.',
    'Toll für einen Spaziergang mit Kindern.',
  ],
  culture: [
    'Mindestens zwei Stunden einplanen.',
    'Am ersten Sonntag im Monat freier Eintritt.',
    'Der Audioguide lohnt sich.',
    'Das oberste Stockwerk nicht verpassen.',
  ],
  stay: [
    'Saubere Zimmer, hilfsbereite Rezeption.',
    'Nach einem Zimmer zum Hof fragen, ruhiger.',
    'Frühstück mit gutem Preis-Leistungs-Verhältnis.',
    'Nah an Bus und Bahn.',
  ],
  general: [
    'Freundlich und schnell.',
    'Gut mit öffentlichen Verkehrsmitteln erreichbar.',
    'Vorher anrufen und die Öffnungszeiten prüfen.',
    'Schneller Service.',
  ],
};

const ES: Texts = {
  food: [
    'El menú del día merece la pena.',
    'Reserva el fin de semana, {name} se llena rápido.',
    'Raciones generosas y personal amable.',
    'Deja sitio para el postre.',
  ],
  drink: [
    'Buen café y un rincón tranquilo para leer.',
    'Happy hour hasta las siete.',
    'Prueba la especialidad de la casa.',
    'Sitio acogedor, buena música.',
  ],
  shop: [
    'Personal amable que conoce el producto.',
    'Buenos precios, mira al fondo de la tienda.',
    'Abre hasta tarde, práctico después del trabajo.',
    'Los sábados hay mucha gente, ven temprano.',
  ],
  outdoor: [
    'Precioso al atardecer.',
    'Ideal para un pícnic a la sombra.',
    'Más tranquilo a primera hora.',
    'Genial para pasear con niños.',
  ],
  culture: [
    'Reserva al menos dos horas.',
    'Entrada gratuita el primer domingo del mes.',
    'La audioguía vale la pena.',
    'No te pierdas la última planta.',
  ],
  stay: [
    'Habitaciones limpias y recepción atenta.',
    'Pide una habitación interior, es más tranquila.',
    'Desayuno con buena relación calidad-precio.',
    'Cerca del transporte público.',
  ],
  general: [
    'Amables y eficientes.',
    'Fácil de llegar en transporte público.',
    'Llama antes para confirmar el horario.',
    'Atención rápida.',
  ],
};

const IT: Texts = {
  food: [
    'Il piatto del giorno merita.',
    'Prenotate nel fine settimana, {name} si riempie presto.',
    'Porzioni abbondanti e personale gentile.',
    'Lasciate spazio per il dolce.',
  ],
  drink: [
    'Ottimo caffè e un angolo tranquillo per leggere.',
    'Aperitivo fino alle sette.',
    'Provate la specialità della casa.',
    'Posto accogliente, buona musica.',
  ],
  shop: [
    'Personale gentile e preparato.',
    'Buoni prezzi, guardate in fondo al negozio.',
    'Aperto fino a tardi, comodo dopo il lavoro.',
    'Il sabato è pieno, venite presto.',
  ],
  outdoor: [
    'Bellissimo al tramonto.',
    'Perfetto per un picnic all’ombra.',
    'Più tranquillo la mattina presto.',
    'Ideale per una passeggiata con i bambini.',
  ],
  culture: [
    'Calcolate almeno due ore.',
    'Ingresso gratuito la prima domenica del mese.',
    'L’audioguida vale la pena.',
    'Non perdete l’ultimo piano.',
  ],
  stay: [
    'Camere pulite e reception disponibile.',
    'Chiedete una camera sul cortile, è più silenziosa.',
    'Colazione con un buon rapporto qualità-prezzo.',
    'Vicino ai mezzi pubblici.',
  ],
  general: [
    'Gentili ed efficienti.',
    'Facile da raggiungere con i mezzi.',
    'Chiamate prima per verificare gli orari.',
    'Servizio veloce.',
  ],
};

const PT: Texts = {
  food: [
    'O prato do dia vale a pena.',
    'Reserve no fim de semana, {name} enche rápido.',
    'Porções generosas e atendimento simpático.',
    'Guarde espaço para a sobremesa.',
  ],
  drink: [
    'Café ótimo e um canto tranquilo para ler.',
    'Happy hour até às sete.',
    'Prove a especialidade da casa.',
    'Lugar aconchegante, boa música.',
  ],
  shop: [
    'Atendimento simpático e bem informado.',
    'Bons preços, veja no fundo da loja.',
    'Abre até tarde, prático depois do trabalho.',
    'Aos sábados enche, venha cedo.',
  ],
  outdoor: [
    'Lindo ao pôr do sol.',
    'Ótimo para um piquenique à sombra.',
    'Mais tranquilo de manhã cedo.',
    'Ótimo para passear com crianças.',
  ],
  culture: [
    'Reserve pelo menos duas horas.',
    'Entrada gratuita no primeiro domingo do mês.',
    'O audioguia vale a pena.',
    'Não perca o último andar.',
  ],
  stay: [
    'Quartos limpos e receção prestável.',
    'Peça um quarto virado para o pátio, é mais calmo.',
    'Pequeno-almoço com boa relação qualidade-preço.',
    'Perto dos transportes públicos.',
  ],
  general: [
    'Simpáticos e eficientes.',
    'Fácil de chegar de transporte público.',
    'Ligue antes para confirmar o horário.',
    'Atendimento rápido.',
  ],
};

const NL: Texts = {
  food: [
    'Het dagmenu is de moeite waard.',
    'Reserveer in het weekend, {name} zit snel vol.',
    'Royale porties en vriendelijk personeel.',
    'Bewaar ruimte voor het toetje.',
  ],
  drink: [
    'Goede koffie en een rustig hoekje om te lezen.',
    'Happy hour tot zeven uur.',
    'Probeer de huisspecialiteit.',
    'Gezellige plek, goede muziek.',
  ],
  shop: [
    'Vriendelijk personeel met verstand van zaken.',
    'Goede prijzen, kijk ook achterin.',
    'Laat open, handig na het werk.',
    'Zaterdag druk, kom vroeg.',
  ],
  outdoor: [
    'Prachtig bij zonsondergang.',
    'Ideaal voor een picknick in de schaduw.',
    'Vroeg in de ochtend rustiger.',
    'Leuk om te wandelen met kinderen.',
  ],
  culture: [
    'Trek er minstens twee uur voor uit.',
    'Gratis toegang op de eerste zondag van de maand.',
    'De audiotour is de moeite waard.',
    'Mis de bovenste verdieping niet.',
  ],
  stay: [
    'Schone kamers en behulpzame receptie.',
    'Vraag een kamer aan de binnenplaats, rustiger.',
    'Ontbijt met goede prijs-kwaliteitverhouding.',
    'Dicht bij het openbaar vervoer.',
  ],
  general: [
    'Vriendelijk en snel.',
    'Goed bereikbaar met het openbaar vervoer.',
    'Bel vooraf om de openingstijden te checken.',
    'Snelle service.',
  ],
};

export const TIP_TEXTS: Record<TipLanguage, Texts> = {
  en: EN,
  fr: FR,
  de: DE,
  es: ES,
  it: IT,
  pt: PT,
  nl: NL,
};

/**
 * Closing remarks added to a text after each text has been used once, so a popular place's tips (up to ~26)
 * never repeat: tip n is text n % 4 with ending ⌊n / 4⌋ − 1 (none the first round).
 */
export const TIP_ENDINGS: Record<TipLanguage, readonly string[]> = {
  en: [
    'Went on a weekday.',
    'Would come back.',
    'Busy at weekends.',
    'Worth the detour.',
    'Staff were lovely.',
    'Good value.',
    'Came with friends.',
  ],
  fr: [
    'Venu en semaine.',
    'J’y reviendrai.',
    'Du monde le week-end.',
    'Vaut le détour.',
    'Personnel adorable.',
    'Bon rapport qualité-prix.',
    'Venu entre amis.',
  ],
  de: [
    'War unter der Woche da.',
    'Komme wieder.',
    'Am Wochenende voll.',
    'Lohnt den Umweg.',
    'Sehr nettes Personal.',
    'Preis-Leistung stimmt.',
    'Mit Freunden hier gewesen.',
  ],
  es: [
    'Fui entre semana.',
    'Volveré.',
    'Lleno los fines de semana.',
    'Merece la pena.',
    'Personal encantador.',
    'Buena relación calidad-precio.',
    'Vine con amigos.',
  ],
  it: [
    'Ci sono stato in settimana.',
    'Ci tornerò.',
    'Pieno nel fine settimana.',
    'Vale la deviazione.',
    'Personale gentilissimo.',
    'Buon rapporto qualità-prezzo.',
    'Venuto con amici.',
  ],
  pt: [
    'Fui durante a semana.',
    'Voltarei.',
    'Cheio aos fins de semana.',
    'Vale o desvio.',
    'Equipa simpática.',
    'Boa relação qualidade-preço.',
    'Vim com amigos.',
  ],
  nl: [
    'Doordeweeks geweest.',
    'Kom zeker terug.',
    'Druk in het weekend.',
    'De omweg waard.',
    'Heel vriendelijk personeel.',
    'Goede prijs-kwaliteit.',
    'Met vrienden geweest.',
  ],
};

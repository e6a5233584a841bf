import type { GuestMailKind } from "@/db/schema";
import type { GuestLocale } from "@/lib/guest-locale";

/**
 * What a guest e-mail says, in each language the booking engine speaks (issue 38): a booking made
 * on the engine is mailed in the language the guest booked in. Values (dates, times, money) come
 * in already written for the language (lib/dates, lib/money). A `Record` over every language, so
 * the type checker refuses a language with a sentence missing.
 */
export type MailWords = {
  subject: Record<GuestMailKind, (hotel: string) => string>;
  lead: Record<GuestMailKind, (hotel: string) => string>;
  greeting: (first: string, last: string) => string;
  arrival: string;
  departure: string;
  nights: string;
  room: string;
  guests: string;
  rate: string;
  total: string;
  taxes: string;
  from: (time: string) => string;
  by: (time: string) => string;
  party: (adults: number, children: number) => string;
  policyTitle: string;
  freeUntil: (when: string) => string;
  nonRefundable: string;
  deadlinePassed: string;
  noShow: (fee: string) => string;
  firstNights: (nights: number) => string;
  percentOfStay: (percent: number) => string;
  closing: string;
  closingCancelled: string;
  manageTitle: string;
  manageText: string;
};

const plural = (n: number, one: string, other: string) => `${n} ${n === 1 ? one : other}`;

export const mailWords: Record<GuestLocale, MailWords> = {
  en: {
    subject: {
      confirmation: (h) => `Your booking at ${h} is confirmed`,
      modification: (h) => `Your booking at ${h} has changed`,
      cancellation: (h) => `Your booking at ${h} is cancelled`,
    },
    lead: {
      confirmation: (h) => `Thank you for booking with ${h}. Your reservation is confirmed.`,
      modification: (h) => `Your reservation at ${h} has been changed. Here it is as it now stands.`,
      cancellation: (h) => `Your reservation at ${h} has been cancelled. These were its details.`,
    },
    greeting: (f, l) => `Dear ${f} ${l},`,
    arrival: "Arrival",
    departure: "Departure",
    nights: "Nights",
    room: "Room",
    guests: "Guests",
    rate: "Rate",
    total: "Total",
    taxes: "Of which taxes",
    from: (t) => `from ${t}`,
    by: (t) => `by ${t}`,
    party: (a, c) => [plural(a, "adult", "adults"), c ? plural(c, "child", "children") : null].filter(Boolean).join(", "),
    policyTitle: "Cancellation policy",
    freeUntil: (w) => `Free cancellation until ${w} (hotel time). After that, the room charges are due.`,
    nonRefundable: "This rate is non-refundable: if you cancel, the stay is charged in full.",
    deadlinePassed: "This booking can no longer be cancelled free of charge: the free cancellation period has already ended, so if you cancel, the room charges are due.",
    noShow: (fee) => `If you do not arrive, ${fee} is charged.`,
    firstNights: (n) => (n === 1 ? "the first night" : `the first ${n} nights`),
    percentOfStay: (p) => `${p} % of the stay`,
    closing: "We look forward to welcoming you.",
    closingCancelled: "We hope to welcome you another time.",
    manageTitle: "Change or cancel your booking",
    manageText: "Open this link to see your booking, change its dates or guests, add a request or cancel it:",
  },
  pt: {
    subject: {
      confirmation: (h) => `A sua reserva em ${h} está confirmada`,
      modification: (h) => `A sua reserva em ${h} foi alterada`,
      cancellation: (h) => `A sua reserva em ${h} foi cancelada`,
    },
    lead: {
      confirmation: (h) => `Obrigado por reservar com ${h}. A sua reserva está confirmada.`,
      modification: (h) => `A sua reserva em ${h} foi alterada. Eis como fica agora.`,
      cancellation: (h) => `A sua reserva em ${h} foi cancelada. Estes eram os seus dados.`,
    },
    greeting: (f, l) => `Caro(a) ${f} ${l},`,
    arrival: "Chegada",
    departure: "Partida",
    nights: "Noites",
    room: "Quarto",
    guests: "Hóspedes",
    rate: "Tarifa",
    total: "Total",
    taxes: "Dos quais impostos",
    from: (t) => `a partir das ${t}`,
    by: (t) => `até às ${t}`,
    party: (a, c) => [plural(a, "adulto", "adultos"), c ? plural(c, "criança", "crianças") : null].filter(Boolean).join(", "),
    policyTitle: "Política de cancelamento",
    freeUntil: (w) => `Cancelamento gratuito até ${w} (hora do hotel). Depois disso, as noites são cobradas.`,
    nonRefundable: "Esta tarifa não é reembolsável: se cancelar, a estadia é cobrada na totalidade.",
    deadlinePassed: "Esta reserva já não pode ser cancelada gratuitamente: o prazo de cancelamento gratuito terminou, por isso, se cancelar, as noites são cobradas.",
    noShow: (fee) => `Se não comparecer, é cobrado ${fee}.`,
    firstNights: (n) => (n === 1 ? "o valor da primeira noite" : `o valor das primeiras ${n} noites`),
    percentOfStay: (p) => `${p} % da estadia`,
    closing: "Esperamos recebê-lo(a) em breve.",
    closingCancelled: "Esperamos recebê-lo(a) noutra ocasião.",
    manageTitle: "Alterar ou cancelar a sua reserva",
    manageText: "Abra esta ligação para ver a sua reserva, alterar as datas ou os hóspedes, acrescentar um pedido ou cancelá-la:",
  },
  es: {
    subject: {
      confirmation: (h) => `Su reserva en ${h} está confirmada`,
      modification: (h) => `Su reserva en ${h} ha cambiado`,
      cancellation: (h) => `Su reserva en ${h} está cancelada`,
    },
    lead: {
      confirmation: (h) => `Gracias por reservar con ${h}. Su reserva está confirmada.`,
      modification: (h) => `Su reserva en ${h} se ha modificado. Así queda ahora.`,
      cancellation: (h) => `Su reserva en ${h} se ha cancelado. Estos eran sus datos.`,
    },
    greeting: (f, l) => `Estimado/a ${f} ${l}:`,
    arrival: "Llegada",
    departure: "Salida",
    nights: "Noches",
    room: "Habitación",
    guests: "Huéspedes",
    rate: "Tarifa",
    total: "Total",
    taxes: "De los cuales impuestos",
    from: (t) => `desde las ${t}`,
    by: (t) => `hasta las ${t}`,
    party: (a, c) => [plural(a, "adulto", "adultos"), c ? plural(c, "niño", "niños") : null].filter(Boolean).join(", "),
    policyTitle: "Política de cancelación",
    freeUntil: (w) => `Cancelación gratuita hasta el ${w} (hora del hotel). Después, se cobran las noches.`,
    nonRefundable: "Esta tarifa no es reembolsable: si cancela, se cobra la estancia completa.",
    deadlinePassed: "Esta reserva ya no se puede cancelar gratis: el plazo de cancelación gratuita ha terminado, así que si cancela, se cobran las noches.",
    noShow: (fee) => `Si no se presenta, se cobra ${fee}.`,
    firstNights: (n) => (n === 1 ? "el importe de la primera noche" : `el importe de las primeras ${n} noches`),
    percentOfStay: (p) => `el ${p} % de la estancia`,
    closing: "Esperamos darle la bienvenida.",
    closingCancelled: "Esperamos recibirle en otra ocasión.",
    manageTitle: "Modificar o cancelar su reserva",
    manageText: "Abra este enlace para ver su reserva, cambiar las fechas o los huéspedes, añadir una petición o cancelarla:",
  },
  fr: {
    subject: {
      confirmation: (h) => `Votre réservation à ${h} est confirmée`,
      modification: (h) => `Votre réservation à ${h} a été modifiée`,
      cancellation: (h) => `Votre réservation à ${h} est annulée`,
    },
    lead: {
      confirmation: (h) => `Merci d’avoir réservé chez ${h}. Votre réservation est confirmée.`,
      modification: (h) => `Votre réservation à ${h} a été modifiée. La voici telle qu’elle est désormais.`,
      cancellation: (h) => `Votre réservation à ${h} a été annulée. En voici le détail.`,
    },
    greeting: (f, l) => `Bonjour ${f} ${l},`,
    arrival: "Arrivée",
    departure: "Départ",
    nights: "Nuits",
    room: "Chambre",
    guests: "Personnes",
    rate: "Tarif",
    total: "Total",
    taxes: "Dont taxes",
    from: (t) => `à partir de ${t}`,
    by: (t) => `avant ${t}`,
    party: (a, c) => [plural(a, "adulte", "adultes"), c ? plural(c, "enfant", "enfants") : null].filter(Boolean).join(", "),
    policyTitle: "Conditions d’annulation",
    freeUntil: (w) => `Annulation gratuite jusqu’au ${w} (heure de l’hôtel). Ensuite, les nuits sont dues.`,
    nonRefundable: "Ce tarif n’est pas remboursable : en cas d’annulation, le séjour est facturé en totalité.",
    deadlinePassed: "Cette réservation ne peut plus être annulée gratuitement : le délai d’annulation gratuite est passé, les nuits sont donc dues en cas d’annulation.",
    noShow: (fee) => `En cas de non-présentation, ${fee} est facturé.`,
    firstNights: (n) => (n === 1 ? "le prix de la première nuit" : `le prix des ${n} premières nuits`),
    percentOfStay: (p) => `${p} % du séjour`,
    closing: "Nous nous réjouissons de vous accueillir.",
    closingCancelled: "Nous espérons vous accueillir une autre fois.",
    manageTitle: "Modifier ou annuler votre réservation",
    manageText: "Ouvrez ce lien pour voir votre réservation, changer les dates ou le nombre de personnes, ajouter une demande ou l’annuler :",
  },
  de: {
    subject: {
      confirmation: (h) => `Ihre Buchung im ${h} ist bestätigt`,
      modification: (h) => `Ihre Buchung im ${h} wurde geändert`,
      cancellation: (h) => `Ihre Buchung im ${h} ist storniert`,
    },
    lead: {
      confirmation: (h) => `Vielen Dank für Ihre Buchung im ${h}. Ihre Reservierung ist bestätigt.`,
      modification: (h) => `Ihre Reservierung im ${h} wurde geändert. So sieht sie jetzt aus.`,
      cancellation: (h) => `Ihre Reservierung im ${h} wurde storniert. Dies waren ihre Angaben.`,
    },
    greeting: (f, l) => `Guten Tag ${f} ${l},`,
    arrival: "Anreise",
    departure: "Abreise",
    nights: "Nächte",
    room: "Zimmer",
    guests: "Gäste",
    rate: "Tarif",
    total: "Gesamtpreis",
    taxes: "Davon Steuern",
    from: (t) => `ab ${t} Uhr`,
    by: (t) => `bis ${t} Uhr`,
    party: (a, c) => [plural(a, "Erwachsener", "Erwachsene"), c ? plural(c, "Kind", "Kinder") : null].filter(Boolean).join(", "),
    policyTitle: "Stornierungsbedingungen",
    freeUntil: (w) => `Kostenlose Stornierung bis ${w} (Ortszeit des Hotels). Danach werden die Übernachtungen berechnet.`,
    nonRefundable: "Dieser Tarif ist nicht erstattbar: Bei Stornierung wird der gesamte Aufenthalt berechnet.",
    deadlinePassed: "Diese Buchung kann nicht mehr kostenlos storniert werden: Die Frist für die kostenlose Stornierung ist abgelaufen, bei Stornierung werden die Übernachtungen berechnet.",
    noShow: (fee) => `Wenn Sie nicht anreisen, wird ${fee} berechnet.`,
    firstNights: (n) => (n === 1 ? "der Preis der ersten Nacht" : `der Preis der ersten ${n} Nächte`),
    percentOfStay: (p) => `${p} % des Aufenthalts`,
    closing: "Wir freuen uns auf Ihren Besuch.",
    closingCancelled: "Wir hoffen, Sie ein anderes Mal begrüßen zu dürfen.",
    manageTitle: "Buchung ändern oder stornieren",
    manageText: "Über diesen Link sehen Sie Ihre Buchung, ändern Daten oder Gäste, fügen einen Wunsch hinzu oder stornieren sie:",
  },
};

/** The key under which the resolveRoute hook stamps the name of the tap that answered; a symbol, so no tap can set it. */
export const ANSWERED_BY: unique symbol = Symbol('cw.answeredBy');

/**
 * How many connections the kernel may hold for the process before it takes them (listen(2)'s backlog).
 * Node's default is 511. At a drop thousands of phones arrive within seconds and each waiting one holds
 * a connection for its held answer (domain/catalogue/roomHold.ts); past the backlog Linux drops the new
 * connection's handshake, and the phone's next try comes 1, 3, then 7 s later (TCP's SYN retries): a
 * held answer 7 s late, a timeout. Linux caps it at net.core.somaxconn (4096 since kernel 5.4; raise it
 * there for more).
 */
export const LISTEN_BACKLOG = 4096

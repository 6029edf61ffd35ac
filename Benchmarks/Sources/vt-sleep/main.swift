// The floor of the Swift runtime's memory: a program, linked as the release programs are
// (static Swift runtime), that does nothing but sleep. The memory section reports its resident
// set beside svc-supervisor's with fifty services.
import Glibc

while true { pause() }

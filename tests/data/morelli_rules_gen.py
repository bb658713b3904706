# Writes tests/data/morelli_rules.txt (python3 tests/data/morelli_rules_gen.py >
# tests/data/morelli_rules.txt): each position is written cell by cell and the
# position after each move is worked out here by hand (the cells that change),
# independently of the engine; spare stones fill the outer ring so that a
# position in play holds as many stones as the ring.
import sys
def cell(s):
    return (ord(s[0])-97, int(s[1:])-1)
def name(f,r): return "%c%d"%(97+f, r+1)
class B:
    def __init__(s, n=13):
        s.n=n; s.c={}; s.throne=None; s.stm='b'
    def put(s, col, cells):
        for x in cells.split(): s.c[cell(x)]=col
        return s
    def band(s,f,r):
        h=(s.n-1)//2; return max(abs(f-h),abs(r-h))
    def ring(s):
        n=s.n; out=[]
        for r in range(n):
            for f in range(n):
                if s.band(f,r)==(n-1)//2: out.append((f,r))
        return out
    def fill(s, keep=""):
        """fill outer-ring cells (not in keep) alternately until the ring count"""
        keep={cell(x) for x in keep.split()}
        k=0
        for (f,r) in s.ring():
            if len(s.c) >= 4*(s.n-1): break
            if (f,r) in s.c or (f,r) in keep: continue
            s.c[(f,r)] = 'bw'[k%2]; k+=1
        assert len(s.c)==4*(s.n-1), len(s.c)
        return s
    def copy(s):
        t=B(s.n); t.c=dict(s.c); t.throne=s.throne; t.stm=s.stm; return t
    def move(s, a, b, caps="", throne=None):
        t=s.copy(); fa=cell(a); col=t.c.pop(fa); t.c[cell(b)]=col
        for x in caps.split(): t.c[cell(x)]=col
        if throne: t.throne=throne
        t.stm = 'w' if s.stm=='b' else 'b'
        return t
    def fen(s):
        n=s.n; h=(n-1)//2; rows=[]
        for r in range(n-1,-1,-1):
            row=""; run=0
            for f in range(n):
                ch=s.c.get((f,r))
                if ch is None and (f,r)==(h,h) and s.throne: ch=s.throne
                if ch is None: run+=1; continue
                if run: row+=str(run); run=0
                row+=ch
            if run: row+=str(run)
            rows.append(row)
        return "/".join(rows)+" "+s.stm
out=[]
def case(title, b, *lines, ruleset=None, setup=None):
    out.append("")
    out.append("case "+title)
    if ruleset: out.append("ruleset "+ruleset)
    if setup: out.append("setup "+setup)
    out.append("fen "+b.fen())
    out.extend(lines)

# Fig 2: the white stone on a5.
b=B().put('w','a5').put('b','j3 k4 c10').put('w','d11 j10').fill("i13 m5 e1 a4 a6"); b.stm='w'
case("fig2 stone on a5 (seed 001, 003 rule 4.2.1)", b,
     "dests a5 b5 c5 d5 e5 f5 g5 h5 i5 j5 k5 l5 b6 c7 d8 e9 f10 g11 h12 b4 c3 d2",
     "illegal a5-i13", "illegal a5-m5", "illegal a5-e1", "illegal a5-a6", "illegal a5-a4")

# Fig 3: the black stone on d1.
f3=B().put('b','d1 b5 f4 i8 g8 g6 k6 k4 i4 d10 f10').put('w','b4 e3 i7 h7 h6 j6 j5 i5').fill()
case("fig3 d1-b3 takes b4", f3, "play d1-b3 "+f3.move('d1','b3','b4').fen())
case("fig3 d1-d2 takes e3", f3, "play d1-d2 "+f3.move('d1','d2','e3').fen())
case("fig3 d1-i6 takes six", f3, "play d1-i6 "+f3.move('d1','i6','i7 h7 h6 j6 j5 i5').fen())
w3=f3.copy(); w3.stm='w'
case("fig3 e3-e10 inserted between d10 and f10 is safe", w3, "play e3-e10 "+w3.move('e3','e10').fen())

# Fig 4: ripple rule.
f4=B().put('w','g11 j6 l9').put('b','j7 k8').fill(); f4.stm='w'
case("fig4 ripple: g11-j8 takes j7, not k8", f4, "play g11-j8 "+f4.move('g11','j8','j7').fen())

# Fig 5: frames.
f5=B().put('b','e3 j4 j10 d10').fill()
case("frame at a plain corner: e3-d4 (green)", f5, "play e3-d4 "+f5.move('e3','d4',throne='B').fen(),
     "noisy e3-d4", "eval > 100", "playout 80")
f5w=f5.copy(); f5w.throne='W'
case("frame evicts the opponent's king", f5w, "play e3-d4 "+f5w.move('e3','d4',throne='B').fen())
f5b=f5.copy(); f5b.throne='B'
case("frame with the mover's king already on the Throne: no change", f5b,
     "play e3-d4 "+f5b.move('e3','d4').fen(), "quiet e3-d4")
f5c=B().put('b','e3 c6 i4 j9 e10').put('w','d5').fill()
case("frame made by capture: e3-e4 takes d5 (green, tilted)", f5c,
     "play e3-e4 "+f5c.move('e3','e4','d5',throne='B').fen(), "noisy e3-e4")
tl=B().put('b','e3 j5 i10 d9').fill()
case("tilted frame: e3-e4 with j5 i10 d9", tl, "play e3-e4 "+tl.move('e3','e4',throne='B').fen())
f7=B().put('w','b7 h5 h9 h7').put('b','g6 g8').fill("a7 a6 a8"); f7.stm='w'
case("three corners at once: b7-f7 (indigo)", f7,
     "play b7-f7 "+f7.move('b7','f7','g6 g8',throne='W').fen(), "playout 80")
case("classic: two captures, four choices, one enthrones", f7,
     "landing b7-f7 b7-f7 b7-f7xg6 b7-f7xg8 b7-f7xg6xg8 b7-f7xg6xg8+",
     "play b7-f7xg8 "+f7.move('b7','f7','g8').fen(),
     "play b7-f7xg6xg8 "+f7.move('b7','f7','g6 g8').fen(),
     "play b7-f7xg6xg8+ "+f7.move('b7','f7','g6 g8',throne='W').fen(),
     "illegal b7-f7+", "illegal b7-f7xg6+", "legal b7-f7xg8xg6+", "legal B7F7XG6XG8+",
     "illegal b7-f7xg6xg6", "illegal b7-f7xh7", "noisy b7-f7xg6", "quiet b7-f7", ruleset="classic")
# classic, landing completes the frame by itself and offers two captures
cl=B().put('b','e3 j4 j10 d10 d6 f6').put('w','d5 e5').fill()
case("classic: frame by landing plus two captures: eight choices", cl,
     "landing e3-d4 e3-d4 e3-d4+ e3-d4xd5 e3-d4xd5+ e3-d4xe5 e3-d4xe5+ e3-d4xd5xe5 e3-d4xd5xe5+",
     ruleset="classic")
case("standard: the same landing takes both and enthrones", cl,
     "play e3-d4 "+cl.move('e3','d4','d5 e5',throne='B').fen(), "illegal e3-d4xd5")

# King is not a partner.
kp=B().put('b','g3').put('w','g6').fill(); kp.throne='B'
case("king not a partner: g3-g5 next to g6 with the black king beyond", kp,
     "play g3-g5 "+kp.move('g3','g5').fen(), "quiet g3-g5", "eval > 50")

# Throne passable only while empty, never a destination.
tp=B().fill()
case("throne empty: a1 passes over it", tp, "dests a1 b2 c3 d4 e5 f6 h8 i9 j10 k11 l12", "illegal a1-g7")
tk=tp.copy(); tk.throne='W'
case("throne occupied: a1 stops before it", tk, "dests a1 b2 c3 d4 e5 f6", "illegal a1-h8")

# Game end on 9x9: Black's stones all on band 1.
def ended(thr):
    e=B(9).put('b','d4 e4 f4 d5 f5 d6 e6 f6')
    for (f,r) in e.ring():
        if len(e.c)<32: e.c[(f,r)]='w'
    e.throne=thr; return e
case("end: no black move, white king: White wins", ended('W'), "count 0", "result p2", "eval < -100")
case("end: no black move, black king: Black wins", ended('B'), "count 0", "result p1")
case("end: no black move, empty Throne: draw", ended(None), "count 0", "result draw")
st=B(9).put('b','a1')
case("start of 9x9 adjacent goes on", B(9).put('b','a1 a2 a3 a4 a5 a6 a7 a8 a9 b1 c1 d1 e1 f1 g1 h1').put('w','i1 i2 i3 i4 i5 i6 i7 i8 i9 b9 c9 d9 e9 f9 g9 h9'),
     "count 192", "result none")

# Placement phase.
e9=B(9); e9.c={}
p1=e9.copy(); p1.c[cell('a1')]='b'; p1.stm='w'
p2=p1.copy(); p2.c[cell('i9')]='w'; p2.stm='w'
p3=p2.copy(); p3.c[cell('e1')]='w'; p3.stm='b'
case("free placement: Black 1, White 2, Black 2", e9, "count 32", "result none", "illegal e5", "illegal b2",
     "play a1 "+p1.fen(), "quiet a1", ruleset=None, setup="free")
case("free placement: White places twice", p1, "count 31", "play i9 "+p2.fen(), setup="free")
case("free placement: then Black", p2, "count 30", "play e1 "+p3.fen(), "illegal a1", setup="free")
q1=e9.copy(); q1.c[cell('a1')]='b'; q1.c[cell('i9')]='w'; q1.stm='w'
q2=q1.copy(); q2.c[cell('c1')]='w'; q2.c[cell('g9')]='b'; q2.stm='w'
q3=q2.copy(); q3.c[cell('a5')]='w'; q3.c[cell('i5')]='b'; q3.stm='b'
case("pairs placement: the opposite cell gets an adverse stone", e9, "count 32", "play a1 "+q1.fen(), setup="pairs")
case("pairs placement: White places two pairs", q1, "count 30", "play c1 "+q2.fen(), "illegal i9", setup="pairs")
case("pairs placement: then Black", q2, "play a5 "+q3.fen(), setup="pairs")
rl=B(9).ring()
# 30 stones placed by pairs, Black places the last pair: then play, Black first
lp=B(9)
for (f,r) in rl:
    if (f,r) in lp.c: continue
    if len(lp.c) >= 30: break
    o=(8-f,8-r)
    if o in lp.c: continue
    lp.c[(f,r)]='b'; lp.c[o]='w'
lp.stm='b'
empty=[x for x in rl if x not in lp.c]
a=empty[0]; an=name(*a)
after=lp.copy(); after.c[a]='b'; after.c[(8-a[0],8-a[1])]='w'; after.stm='b'
case("pairs placement: the last pair starts the play, Black first", lp, "count 2",
     "play "+an+" "+after.fen(), setup="pairs")

print("# Morelli rule cases (generated by hand-written cell lists; see test_morelli_rules.c).")
print("# case <title>; fen <fen>; ruleset classic; dests <from> <to>...: exact landing cells;")
print("# legal/illegal <move>; play <move> <fen after>; landing <from-to> <texts>: exact")
print("# set of legal move texts with that from-to; noisy/quiet <move>; count <n>; result none|p1|p2|draw")
print("\n".join(out))

"""The word lists the output texts (``outputs.jsonl``) are assembled from, per domain.

Ordinary entries use typographic apostrophes and quotes (’ “ ”), so they contain nothing a web
page must escape; only ODD_LINES carries <, >, & and ASCII quotes.
"""

from __future__ import annotations

PEOPLE = (("Ada", "she", "her"), ("Tomas", "he", "his"), ("Ines", "she", "her"), ("Marek", "he", "his"),
          ("June", "she", "her"), ("Oskar", "he", "his"), ("Priya", "she", "her"), ("Wen", "he", "his"),
          ("Noor", "she", "her"), ("Felix", "he", "his"), ("Hollis", "she", "her"), ("Dario", "he", "his"))
PLACES = ("the ferry terminal at Kessling", "a shuttered bakery on Quay Street", "the county archive after midnight",
          "a lighthouse nobody had lit in nine years", "the last bus out of Varne", "the back office of a pawnshop",
          "a motel with one working sign", "the cold store behind the fish market", "a church hall set up for an auction",
          "the top floor of a car park", "the night train to the coast", "a laundrette that never closed")
OBJECTS = ("a key with no door to go with it", "a letter postmarked eleven years late", "a photograph with one face cut out",
           "a ledger in a dead man’s handwriting", "a coat that was not his", "a wedding ring in a sugar jar",
           "a cassette labelled only with a date", "a map with the river drawn on the wrong side",
           "a dog that answered to someone else’s name", "a suitcase full of unopened bills")
EVENTS = ("the harbour froze", "the mill closed for good", "her brother came home", "the election was called off",
          "the water came up to the second step", "the school burned down", "the last of the orchards was sold")
WANTS = ("the deed to the house", "one honest answer from her sister", "a ticket south before the snow",
         "the money back before Friday", "a name to put on the grave", "the job his father never got")

BOOK_OPENERS = (
    "{N} found {obj} in {place} on the morning {event}.",
    "Nobody in town had spoken to {N} since {event}, which suited {o} until the knock came.",
    "The first thing {N} stole was {obj}; the second was {p} mother’s name.",
    "By the time the ferry docked, {N} had decided to lie about {obj}.",
    "{N} kept {obj} in a biscuit tin under the floorboards, and on the morning {event} the tin was empty.",
    "There were three rules in {place}, and {N} broke the second one before breakfast.",
)
BOOK_SENTENCES = (
    "{S} had been promised a letter that would explain everything, and the letter was late.",
    "{S} wanted {want}, and the only person who could give it was the one {s} had sworn never to call again.",
    "Somewhere below, a radio was reading the shipping forecast to an empty room.",
    "{S} counted the money twice: enough for the fare, or enough for the debt, not both.",
    "The man at the counter looked at {o} the way people look at weather they have seen before.",
    "{S} told {o}self it was not fear, only the cold, and did not believe it.",
    "On the table lay {obj}, and beside it a note in a hand {s} almost recognised.",
    "Whoever had been there last had left the kettle warm and the door unlocked.",
    "{S} had until the end of the week, and the week was already half gone.",
    "If anyone asked, {s} would say {s} had come for the funeral.",
)
BOOK_DETAILS = (
    ("It was cold.", "The street was quiet.", "{S} felt nervous.", "The room was dark."),
    ("Frost had silvered the railings.", "A gull worked at something in the gutter.",
     "{S} could hear the tide turning under the pier.", "The lamps came on one street at a time."),
    ("The cold had got into the hinges, so every door in the building announced {o}.",
     "Someone had scratched a tally into the window frame, and the last mark was fresh.",
     "The radiator knocked twice, like a neighbour who already knew the answer.",
     "{P} gloves still smelled of the diesel from the crossing, and of something sweeter underneath."),
)

MEME_FORMATS = (
    ("top and bottom text", "Top text: {A}\nBottom text: {B}"),
    ("two-panel approve and reject", "Panel 1 (reject): {a}\nPanel 2 (approve): {b}"),
    ("labelled image", "Label on the left figure: {a}\nLabel on the right figure: {b}"),
)
MEME_IMAGES = (
    "a cat sitting inside an empty printer tray, looking pleased with itself",
    "a toddler holding a fistful of wet sand, staring straight into the camera",
    "a heron standing perfectly still beside a no-fishing sign",
    "an office chair abandoned in the middle of a flooded car park",
    "a golden retriever wearing safety goggles next to a half-assembled shed",
    "a man in a tuxedo eating cereal alone at a banquet table",
    "two pigeons facing each other on a railing, one of them puffed up twice its size",
    "a snowman leaning against a heat lamp in a beer garden",
)
MEME_SETUPS = ("when the group chat plans the trip for the one weekend you said you were busy",
               "opening the fridge for the fourth time in case something new appeared",
               "the meeting that could have been an email getting a follow-up meeting",
               "replying on my way while still deciding what to wear",
               "finding the receipt the day after the return window closed",
               "the printer working perfectly the moment IT walks over",
               "saying you will just rest your eyes for five minutes",
               "checking the weather app and then looking out of the window anyway")
MEME_TURNS = ("me, apparently", "every single time", "a lifestyle, not a phase", "peak efficiency",
              "the system works", "it was a trap", "growth, technically", "nobody is coming to help")

SCREEN_PLACES = ("HOSPITAL CAR PARK", "MOTEL OFFICE", "HARBOUR MASTER’S HUT", "SCHOOL GYM", "LAUNDERETTE",
                 "AIRPORT CHAPEL", "RADIO STATION BOOTH", "ALL-NIGHT DINER", "GREENHOUSE", "FERRY DECK")
SCREEN_TIMES = ("NIGHT", "DAY", "DAWN", "LATER", "CONTINUOUS")
SCREEN_NAMES = ("MARA", "DEV", "LENA", "TOMAS", "ROSA", "ABEL", "KIT", "NADIA", "OWEN", "SAFI")
SCREEN_ACTIONS = (
    "{A} sets a ring of keys on the counter and does not let go of them.",
    "Rain streaks the window. {B} watches a car idle in the lot, headlights off.",
    "{A} straightens a stack of forms that is already straight.",
    "{B} pockets the envelope without opening it.",
    "A kettle clicks off. Neither of them moves to pour.",
    "{A} slides a photograph across the table, face down.",
    "{B} turns the radio up, then, after a moment, off.",
    "The fluorescent tube above them flickers and steadies.",
)
SCREEN_LINES = (
    "You kept the receipt.", "I kept everything. That was the problem.", "Sit down. Please.",
    "Your coat’s still wet.", "Are you going to tell her, or am I?", "I came for the keys, not a conversation.",
    "The car’s outside. Engine’s running.", "You never used to lock this door.", "She asked about you.", "Don’t.",
    "It’s late.", "It was late three years ago.", "I paid for the room until Sunday.", "Then you’d better use it.",
    "Nobody else knows you’re here.", "That’s what worries me.", "Keep the change.", "There isn’t any change.",
    "You look tired.", "I drove all night.", "Why?", "Because you wouldn’t have.",
)
SCREEN_PARENTHETICALS = ("(quietly)", "(not looking up)", "(beat)", "(too fast)")

SITCOM = {
    # show id -> (cast as cue names, sets, mockumentary?)
    "the-office": (("MICHAEL", "DWIGHT", "JIM", "PAM", "ANGELA", "KEVIN"),
                   ("THE OFFICE - CONFERENCE ROOM", "THE OFFICE - BREAK ROOM", "THE OFFICE - WAREHOUSE", "THE OFFICE - RECEPTION"), True),
    "modern-family": (("JAY", "GLORIA", "CLAIRE", "PHIL", "MITCHELL", "CAMERON", "MANNY"),
                      ("DUNPHY HOUSE - KITCHEN", "PRITCHETT HOUSE - LIVING ROOM", "MITCHELL AND CAMERON’S LOFT", "BACKYARD"), True),
    "friends": (("RACHEL", "MONICA", "PHOEBE", "JOEY", "CHANDLER", "ROSS"),
                ("MONICA’S APARTMENT", "THE COFFEE HOUSE", "JOEY AND CHANDLER’S APARTMENT", "THE HALLWAY"), False),
    "the-big-bang-theory": (("SHELDON", "LEONARD", "PENNY", "HOWARD", "RAJ", "AMY", "BERNADETTE"),
                            ("SHELDON AND LEONARD’S APARTMENT", "THE STAIRWELL", "UNIVERSITY CAFETERIA", "PENNY’S APARTMENT"), False),
}
SITCOM_LINES = (
    "I have a system, and the system has a laminated card.", "Is this about the parking space? Because I moved.",
    "Nobody touches the thermostat until we vote.", "I made a chart.", "That is a napkin with arrows on it.",
    "Okay, but hear me out before you say no.", "I already said no.", "You said no to a different version.",
    "Why is there a goat in the lobby?", "Technically it’s a kid. A baby goat.", "That does not help.",
    "We agreed on a budget.", "We agreed on a feeling about a budget.", "I can explain all of this.",
    "Please don’t.", "Fine. Then I’ll explain half.", "Who ordered forty folding chairs?",
    "That was a rough estimate of how many friends I have.", "Can we not do this in front of the printer?",
    "I read the email. I chose not to understand it.", "Who keeps labelling my yoghurt?", "It was on sale. All of it.",
    "This is a safe space for exactly one opinion.", "I am being completely calm right now.",
)
SITCOM_STAGE = ("{A} enters carrying a stack of folding chairs.", "{B} freezes halfway into a chair.",
                "{A} and {B} exchange a look.", "The door swings open. {B} stands there holding a cake.",
                "{A} points at the whiteboard, which is blank.", "A long pause. {B} sits down slowly.")
SITCOM_TALKING_HEADS = ("This is going to go great. I have thought about it for almost an hour.",
                        "People think I overreact. I don’t. I react exactly the right amount, loudly.",
                        "Did I know it would go wrong? I had a feeling. I ignored the feeling.",
                        "Every family has a system. Ours is mostly hoping.")
SITCOM_BUTTONS = ("{B} quietly folds up the last chair and walks out.", "{A} looks at the cake, then at {B}, then eats the cake.",
                  "The lights go out. In the dark, {B} sighs.", "{A} adds one more arrow to the napkin.")

SONG_LINES = (
    "Porch light flickers on the county road", "Your jacket’s still hanging where you left it",
    "I count the trains like I used to count the days", "Salt on the windscreen, coffee gone cold",
    "Half a moon caught in the chain-link fence", "You wrote your number on the back of my hand",
    "The jukebox only plays the songs we hate", "I kept the ticket stub from the Friday show",
    "Dust on the dashboard spells out your name", "The river’s high and the bridge is out",
    "We danced in the car park when the bar shut down", "Every lighthouse knows a ship it couldn’t save",
    "Your mother’s ring still turning on my thumb", "Streetlights hum a key I almost know",
    "I parked by the water where the ferries wait", "You laughed like the radio was on fire",
)
SONG_HOOKS = (("So drive, drive, drive till the morning comes", "Drive till the town is a light in the rear"),
              ("Hold on to the summer we never had", "Hold on, hold on, it is almost here"),
              ("Call me when the river goes down", "Call me when you’re ready to come home"))

STANDUP_PREMISES = (
    "I have reached the age where my back has opinions.", "My phone thinks I am a much more interesting person than I am.",
    "I joined a gym, which is a place where you pay to feel judged by strangers.",
    "My family communicates entirely through forwarded articles.", "I am not a morning person. I am barely an afternoon person.",
    "Self-checkout machines have trust issues, and honestly, fair.",
)
# (beat, a callback that returns to it later in the set)
STANDUP_BEATS = (
    ("I bent down to tie my shoe last week and my knee filed a complaint.", "My knee has already filed a complaint about this bit."),
    ("My step counter sent me a message that just said: are you okay?", "Even my step counter is worried, and it only counts."),
    ("Unexpected item in the bagging area. It is me. I am the unexpected item.", "Unexpected item, reporting for duty."),
    ("My dad sent me an article called ten signs you are wasting your life, with no message, just the link.", "I will be forwarding this set to my dad. No message. Just the link."),
    ("I set five alarms. Not to wake up. To negotiate.", "Alarm number four is still in talks."),
    ("The trainer asked what my goals were. I said: leaving.", "Goal achieved. I am leaving soon."),
    ("My mother replies to every text with a single thumbs-up, which in our family is a threat.", "Thumbs-up. Threat received."),
    ("I tried meditation, but my mind kept wandering to whether I was doing meditation right.", "I am meditating right now, badly."),
)
STANDUP_DIRECTIONS = ("(pause)", "(beat)", "(mimes checking a phone)", "(to the front row)")

# One line carrying <, >, & and ASCII quotes, per domain: text the site must escape.
ODD_LINES = {
    "book-opening": 'The sign on the door read "Closed <for good> & sorry", in her mother\'s careful hand.',
    "meme-caption": 'Alternate caption: WHEN "5 MIN" > 2 HOURS & <NOBODY> NOTICES',
    "movie-scene": '{A}\n(reading the crate label)\n"Fragile" & "This side up" <- both wrong.',
    "sitcom-scene": '{A}\nThe ranking is simple: me > everyone & "everyone" < me.',
    "song-lyrics": '<chorus> & repeat "one more time" x2',
    "standup-set": 'My password is "<3 & stuff", so now you all know it. (beat) That\'s a security hole > my actual life.',
}

// Parts of the harmless everyday comments among the hand-written trust-safety rows (games, food, pets, markets, shows and more).

/**
 * Ordinary comments as people post them under videos, games, recipes and stock tips: the kind of harmless text the
 * corpus barely has (its safe rows are tweets, talk pages, forum posts and instructions). Built from parts.
 */
export const CHATTER_TOPICS: ReadonlyArray<{ subjects: readonly string[]; comments: readonly string[] }> = [
  {
    subjects: ['this build', 'the new patch', 'ranked this season', 'the final boss', 'my main', 'the support role', 'this map', 'the last DLC', 'co-op mode', 'the speedrun'],
    comments: ['is so much fun once it clicks', 'feels way better than before', 'took me forty tries but I finally did it', 'needs a small nerf honestly', 'carried my whole team last night', 'is underrated, give it a shot', 'made me rage quit twice', 'is basically a different game now', 'has the best soundtrack', 'is brutal on hard mode'],
  },
  {
    subjects: ['this recipe', 'the sourdough', 'these cookies', 'the ramen', 'my grandma\'s chili', 'the banana bread', 'this curry', 'the pancakes', 'that lasagna', 'the pickles'],
    comments: ['came out perfect on the first try', 'is a staple in our house now', 'needs way more garlic', 'disappeared in ten minutes', 'is ridiculously easy to make', 'tastes even better the next day', 'is my comfort food', 'burned a little but still good', 'is worth every minute', 'got my picky kid to eat vegetables'],
  },
  {
    subjects: ['my dog', 'our cat', 'the puppy', 'my parrot', 'the new kitten', 'our old lab', 'the hamster', 'my rabbit', 'the rescue pup', 'our goldfish'],
    comments: ['steals socks every single morning', 'is the laziest creature alive', 'learned to open the fridge', 'snores louder than my husband', 'is terrified of the vacuum', 'thinks she is a person', 'just turned twelve', 'ate my headphones again', 'sleeps on my face', 'is a total drama queen'],
  },
  {
    subjects: ['the stock', 'my portfolio', 'this ETF', 'the earnings call', 'the market today', 'my options', 'this dividend', 'the premarket', 'crypto this week', 'my 401k'],
    comments: ['is going nowhere fast', 'finally recovered after the dip', 'dropped ten percent on the news', 'is a long hold for me', 'looks overpriced to me', 'crushed expectations', 'got wrecked by the rate hike', 'is the only green thing I own', 'is pure gambling at this point', 'went up right after I sold, of course'],
  },
  {
    subjects: ['this episode', 'the finale', 'season two', 'the trailer', 'that plot twist', 'the new series', 'the soundtrack', 'the director\'s cut', 'the last chapter', 'the cast'],
    comments: ['had me crying at 2 am', 'was wild from start to finish', 'was a bit slow but it pays off', 'is better than the book', 'broke my heart', 'deserves every award', 'left way too many questions', 'is absolutely killing it', 'made me laugh so hard', 'ruined my sleep schedule'],
  },
  {
    subjects: ['the band', 'this song', 'the concert', 'the new album', 'that guitar solo', 'the drummer', 'this cover', 'the remix', 'the opening act', 'the live version'],
    comments: ['slaps so hard', 'has been on repeat all week', 'was loud as hell and I loved it', 'gave me chills', 'is criminally underrated', 'absolutely destroyed the stage', 'sounds like summer', 'is better than the original', 'was worth the ticket price', 'made the whole crowd scream'],
  },
  {
    subjects: ['my kid', 'the toddler', 'our teenager', 'my daughter', 'the baby', 'my son', 'the twins', 'my niece', 'our youngest', 'my nephew'],
    comments: ['asked me why the sky is blue fifty times', 'refuses to wear shoes', 'finally slept through the night', 'beat me at chess', 'is obsessed with dinosaurs', 'drew me a dragon', 'called me old today', 'lost another tooth', 'learned to ride a bike', 'wants to be a chef now'],
  },
  {
    subjects: ['the match', 'that goal', 'the referee', 'the second half', 'our keeper', 'the transfer', 'the new coach', 'the playoffs', 'that penalty', 'the derby'],
    comments: ['was an absolute thriller', 'was robbed, no way that was offside', 'needs glasses', 'was a total bloodbath for the defence', 'saved us again', 'is a massive upgrade', 'has the team playing with heart', 'are going to be insane this year', 'was soft but fine', 'gave me a heart attack'],
  },
  {
    subjects: ['the drive', 'my garden', 'the tomatoes', 'this hike', 'the trail', 'the beach', 'my new bike', 'the view', 'the campsite', 'the road trip'],
    comments: ['was stunning', 'is finally producing', 'nearly killed my legs', 'was packed but worth it', 'is the best thing I bought this year', 'took my breath away', 'got flooded last night', 'is my happy place', 'was cold as hell', 'looked unreal at sunset'],
  },
  {
    subjects: ['my laptop', 'the new phone', 'this keyboard', 'the update', 'my router', 'the printer', 'this app', 'the smartwatch', 'my old PC', 'the charger'],
    comments: ['died right before my deadline', 'is fast as hell now', 'keeps crashing when I open it', 'is worth the upgrade', 'fixed the battery drain', 'is a pain to set up', 'still works after ten years', 'lags like crazy', 'finally supports dark mode', 'randomly restarts at night'],
  },
  {
    subjects: ['my car', 'the old truck', 'this engine', 'the tyres', 'my first motorbike', 'the hybrid', 'the clutch', 'the paint job', 'my commute', 'the road'],
    comments: ['made a weird noise all week', 'passed inspection somehow', 'is a beast in the snow', 'cost a fortune to fix', 'goes like a rocket', 'is my pride and joy', 'got rear-ended at a light', 'is smooth as butter', 'is a nightmare in traffic', 'has two hundred thousand miles on it'],
  },
  {
    subjects: ['this jacket', 'the haircut', 'my new boots', 'that dress', 'the makeup look', 'these jeans', 'the nail art', 'her outfit', 'the glasses', 'his beard'],
    comments: ['looks so good on you', 'was a bold choice and it works', 'shrank in the wash', 'is giving main character energy', 'cost way too much but I love it', 'is so comfy', 'is very nineties', 'turned out better than the picture', 'got me so many compliments', 'is perfect for autumn'],
  },
  {
    subjects: ['my shift', 'the meeting', 'this semester', 'the exam', 'my boss', 'the new job', 'the group project', 'my thesis', 'the interview', 'the commute'],
    comments: ['ran two hours over', 'went better than expected', 'is killing me slowly', 'could have been an email', 'gave everyone Friday off', 'starts Monday, wish me luck', 'is finally done', 'was brutal but I passed', 'was chill today', 'made me question my life choices'],
  },
  {
    subjects: ['the weather', 'this heatwave', 'the snow', 'the storm last night', 'the rain', 'the fog', 'this wind', 'the first frost', 'the sunrise', 'the humidity'],
    comments: ['is insane today', 'knocked out our power', 'is perfect for soup', 'made the commute hell', 'is unreal this year', 'finally broke', 'has the dog confused', 'looked like a painting', 'is melting my brain', 'ruined my barbecue plans'],
  },
  {
    subjects: ['leg day', 'my first marathon', 'the gym', 'this workout', 'my knee', 'the yoga class', 'the swim', 'my deadlift', 'the 5k', 'my step count'],
    comments: ['destroyed me', 'went way better than I hoped', 'is packed at six', 'has me sore in places I did not know existed', 'is finally healing', 'is pure zen', 'was freezing but fun', 'went up ten kilos', 'is my new personal best', 'is embarrassingly low today'],
  },
  {
    subjects: ['this book', 'the sequel', 'the audiobook', 'the author', 'the ending', 'the library', 'this comic', 'the first chapter', 'the translation', 'my reading list'],
    comments: ['kept me up all night', 'is somehow even better', 'has the best narrator', 'is a genius', 'wrecked me', 'has a great sale on', 'is gorgeous', 'drags a bit', 'reads beautifully', 'is out of control'],
  },
];
/** How an everyday comment may open. */
export const CHATTER_OPENERS = ['', 'Honestly', 'Ngl', 'Lol', 'Update:', 'Okay so', 'Not gonna lie,', 'Welp,', 'Man,', 'Fun fact:', 'Same here,', 'Can confirm,'];
/** How an everyday comment may close. */
export const CHATTER_CLOSERS = ['', 'lol', 'haha', '😂', '❤️', '!', '10/10', 'highly recommend', 'send help', 'no regrets', 'what a time', '🙌', 'anyone else?', 'just saying'];

2 . 
2 . 
oh , oh ! 
oh , oh ! 
oh , oh ! 
souvenons - nous , monsieur le Orateur , que ce sont ces secteurs de notre société qui servent de épine dorsale à notre économie . 
bravo ! 
bravo ! 
monsieur le Orateur , ma question se adresse à le ministre chargé de les transports . 
tous deux possèdent de nombreuses années de expérience dans la fabrication et la distribution de les produits forestiers . 
1 . 
je voudrais aussi parler de le droit de le fournisseur de choisir ses clients à son gré . 
je en ai assez de voir que les ministres semblent éprouver certains complexes à le égard de la négociation collective . 
je voudrais commenter un autre point particulier , monsieur le Orateur , avant de me taire . 
a le ordre . 
3 . 
il ne y a pas de meilleure autorité en la matière que le député de Don Valley , non pas moi exclusivement . 
ce est tout à fait compréhensible . 
en outre , elle pourrait constituer une sérieuse menace pour la Confédération et le unité nationale . 
pour cette raison , nous ne avons pas cru bon de assister à la réunion et en avons informé le COJO en conséquence . 
monsieur le Orateur , le ministre a laissé entendre que un programme de construction plus considérable peut - être une poussée inflationniste . 
je ne partage pas le avis de le ministre . 
il y a beaucoup à dire sur les deux aspects de cette question . 
a le ordre . 
monsieur le Orateur , comme je le ai signalé à le chef de le opposition , je espère faire une déclaration à ce sujet le1er novembre . 
ce est bien cela . 
ce ne est pas en isolant quelque un que on le aide à se réadapter . 
il laissait une femme et une famille . 
monsieur le président je invoque le Règlement ; je suis persuadé que le député de Verdun ne aurait pas déprécié ma position . 
les compagnies de assurance peuvent - elles à leur tour , agir comme compagnies aériennes ? 
je vous le déclare , monsieur le Orateur , la population de Toronto sait que le gouvernement est incapable de fournir une réponse . 
on a tout à fait tenu compte de leur avis sur le état de la réserve de poisson . 
je vous remercie , monsieur le Orateur , et je remercie les députés de me permettre de poursuivre . 
je réclame instamment cette étude approfondie , monsieur le Orateur , car nous ne savons presque rien de les raisons qui transforment les gens en criminels . 
le gouvernement doit aider ses propres employés qui peuvent avoir besoin de une autre langue pour leur avancement . 
je ne ai pas de scrupule quant à le genre de langage que je tiens . 
( la motion est adoptée . ) 
monsieur le président , la décision ne est pas prise à ce moment - ci , mais je imagine que ce est oui . 
la question de les relations commerciales avec nos homologues européens devrait être envisagée très sérieusement . 
ce dont nous , les Canadiens , devons nous soucier , ce est les cas où on exporte ces animaux dans ce but - là . 
ils ont déjà indiqué les embranchements que ils songeaient à fermer . 
ce ministre assurait la garde tandis que la moitié de les recettes et de les bénéfices de le industrie agricole canadienne étaient balayés par le exposé budgétaire . 
en aucune façon , monsieur le président . 
nous en faisons actuellement le analyse et je espère que bientôt la Chambre pourra être saisie de les renseignements pertinents . 
bravo ! 
bravo ! 
je proposerais donc , avec le appui de le député de Halifax - East ( M. Forrestall ) : 
quand on a saisi le énormité de le ravage exercé par le crime organisé dans notre pays , on doit envisager de les solutions en profondeur . 
leur popularité a monté en flèche et ils ont traversé la crise avec facilité grâce à cela . 
( 2 ) Un comité doit se en tenir à le ordre de renvoi et ne saurait y déroger . 
